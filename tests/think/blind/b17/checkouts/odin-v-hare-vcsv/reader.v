module vcsv

pub struct Reader {
	data string
mut:
	pos int
}

pub fn new_reader(data string) &Reader {
	return &Reader{
		data: data
	}
}

// read returns the next record, or none at end of input.
pub fn (mut r Reader) read() ![]string {
	if r.pos >= r.data.len {
		return error('eof')
	}
	end := r.data.index_after('\n', r.pos) or { r.data.len }
	line := r.data[r.pos..end]
	r.pos = end + 1
	return line.split(',')
}
