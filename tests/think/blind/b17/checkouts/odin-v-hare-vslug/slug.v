module vslug

// slugify turns a title into a lowercase, dash-separated slug.
pub fn slugify(s string) string {
	mut out := []u8{cap: s.len}
	mut dash := false
	for c in s.to_lower() {
		if c.is_alnum() {
			out << c
			dash = false
		} else if !dash && out.len > 0 {
			out << `-`
			dash = true
		}
	}
	return out.bytestr().trim_right('-')
}
