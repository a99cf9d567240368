const std = @import("std");

pub const Field = struct {
    bytes: []const u8,
    quoted: bool = false,
};

pub const Reader = struct {
    src: []const u8,
    pos: usize = 0,
    delimiter: u8 = ',',

    pub fn init(src: []const u8) Reader {
        return .{ .src = src };
    }

    /// Returns the next field of the current record, or null at end of record.
    pub fn nextField(self: *Reader) ?Field {
        if (self.pos >= self.src.len or self.src[self.pos] == '\n') return null;
        if (self.src[self.pos] == '"') {
            self.pos += 1;
            const start = self.pos;
            while (self.pos < self.src.len and self.src[self.pos] != '"') : (self.pos += 1) {}
            const f = Field{ .bytes = self.src[start..self.pos], .quoted = true };
            self.pos += 1; // closing quote
            if (self.pos < self.src.len and self.src[self.pos] == self.delimiter) self.pos += 1;
            return f;
        }
        const start = self.pos;
        while (self.pos < self.src.len and self.src[self.pos] != self.delimiter and self.src[self.pos] != '\n') : (self.pos += 1) {}
        const f = Field{ .bytes = self.src[start..self.pos] };
        if (self.pos < self.src.len and self.src[self.pos] == self.delimiter) self.pos += 1;
        return f;
    }

    pub fn nextRecord(self: *Reader) bool {
        while (self.pos < self.src.len and self.src[self.pos] != '\n') : (self.pos += 1) {}
        if (self.pos >= self.src.len) return false;
        self.pos += 1;
        return self.pos < self.src.len;
    }
};

test "plain fields" {
    var r = Reader.init("a,b,c\n");
    try std.testing.expectEqualStrings("a", r.nextField().?.bytes);
    try std.testing.expectEqualStrings("b", r.nextField().?.bytes);
    try std.testing.expectEqualStrings("c", r.nextField().?.bytes);
    try std.testing.expect(r.nextField() == null);
}
