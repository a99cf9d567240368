Module {
	name: 'vslug'
	description: 'URL slugs for V'
	version: '0.3.0'
	license: 'MIT'
	dependencies: []
}
