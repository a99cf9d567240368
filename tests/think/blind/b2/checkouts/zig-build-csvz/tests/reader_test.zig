const std = @import("std");
const csvz = @import("csvz");

test "quoted field with delimiter inside" {
    var r = csvz.Reader.init("\"a,b\",c\n");
    const f = r.nextField().?;
    try std.testing.expect(f.quoted);
    try std.testing.expectEqualStrings("a,b", f.bytes);
    try std.testing.expectEqualStrings("c", r.nextField().?.bytes);
}

test "multiple records" {
    var r = csvz.Reader.init("x,y\n1,2\n");
    try std.testing.expectEqualStrings("x", r.nextField().?.bytes);
    try std.testing.expectEqualStrings("y", r.nextField().?.bytes);
    try std.testing.expect(r.nextRecord());
    try std.testing.expectEqualStrings("1", r.nextField().?.bytes);
}
