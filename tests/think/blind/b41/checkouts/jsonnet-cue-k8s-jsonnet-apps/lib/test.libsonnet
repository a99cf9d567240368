{
  eq(actual, expected)::
    if actual == expected then true
    else error 'test failed: expected %s, got %s' % [std.toString(expected), std.toString(actual)],
  suite(cases):: std.all(std.objectValues(cases)),
}
