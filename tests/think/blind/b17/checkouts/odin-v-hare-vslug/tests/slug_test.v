import vslug

fn test_basic() {
	assert vslug.slugify('Hello, World!') == 'hello-world'
}

fn test_collapse_separators() {
	assert vslug.slugify('a  --  b') == 'a-b'
}
