pub const Reader = @import("reader.zig").Reader;
pub const Field = @import("reader.zig").Field;

test {
    _ = @import("reader.zig");
}
