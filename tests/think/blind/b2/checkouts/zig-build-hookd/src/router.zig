const std = @import("std");

pub const Method = enum { GET, POST, PUT, DELETE };

pub const Request = struct {
    method: Method,
    path: []const u8,
    headers: std.StringHashMapUnmanaged([]const u8) = .{},
    body: []const u8 = "",
};

pub const Response = struct {
    status: u16 = 200,
    body: []const u8 = "",
};

pub const Handler = *const fn (req: *const Request, res: *Response) anyerror!void;

const Route = struct {
    method: Method,
    path: []const u8,
    handler: Handler,
};

pub const Router = struct {
    routes: std.ArrayListUnmanaged(Route) = .{},

    pub fn add(self: *Router, gpa: std.mem.Allocator, method: Method, path: []const u8, handler: Handler) !void {
        try self.routes.append(gpa, .{ .method = method, .path = path, .handler = handler });
    }

    pub fn dispatch(self: *const Router, req: *const Request, res: *Response) !void {
        for (self.routes.items) |r| {
            if (r.method == req.method and std.mem.eql(u8, r.path, req.path)) return r.handler(req, res);
        }
        res.status = 404;
    }
};

test "dispatch finds route" {
    const gpa = std.testing.allocator;
    var router = Router{};
    defer router.routes.deinit(gpa);
    try router.add(gpa, .GET, "/ping", struct {
        fn h(_: *const Request, res: *Response) anyerror!void {
            res.body = "pong";
        }
    }.h);
    var res = Response{};
    try router.dispatch(&.{ .method = .GET, .path = "/ping" }, &res);
    try std.testing.expectEqualStrings("pong", res.body);
}
