Module {
	name: 'vcsv'
	description: 'streaming CSV reader'
	version: '0.1.2'
	license: 'MIT'
	dependencies: []
}
