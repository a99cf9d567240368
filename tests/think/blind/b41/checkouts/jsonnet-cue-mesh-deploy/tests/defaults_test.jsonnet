local d = import 'defaults.libsonnet';
assert d.resources.limits.memory == '256Mi' : 'test failed: expected 256Mi, got %s' % d.resources.limits.memory;
true
