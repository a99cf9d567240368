import vcsv

fn test_simple_rows() {
	mut r := vcsv.new_reader('a,b,c\n1,2,3\n')
	assert r.read()! == ['a', 'b', 'c']
	assert r.read()! == ['1', '2', '3']
}

fn test_empty_field() {
	mut r := vcsv.new_reader('a,,c\n')
	assert r.read()! == ['a', '', 'c']
}
