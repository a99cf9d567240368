const std = @import("std");
const r = @import("../router.zig");

pub fn register(router: *r.Router, gpa: std.mem.Allocator) !void {
    try router.add(gpa, .GET, "/admin/queue", queueStats);
    try router.add(gpa, .POST, "/admin/replay", replay);
}

fn queueStats(_: *const r.Request, res: *r.Response) anyerror!void {
    res.body = "{\"pending\":0}";
}

fn replay(_: *const r.Request, res: *r.Response) anyerror!void {
    res.status = 202;
}
