const std = @import("std");
const router_mod = @import("router.zig");
const webhooks = @import("routes/webhooks.zig");
const admin = @import("routes/admin.zig");

pub fn main() !void {
    var gpa_state = std.heap.GeneralPurposeAllocator(.{}){};
    defer _ = gpa_state.deinit();
    const gpa = gpa_state.allocator();

    var router = router_mod.Router{};
    defer router.routes.deinit(gpa);

    try router.add(gpa, .POST, "/hooks/github", webhooks.github);
    try router.add(gpa, .POST, "/hooks/stripe", webhooks.stripe);
    try router.add(gpa, .GET, "/healthz", webhooks.health);
    try admin.register(&router, gpa);

    std.log.info("hookd: {d} routes registered", .{router.routes.items.len});
}

test {
    _ = @import("router.zig");
    _ = @import("routes/webhooks.zig");
}
