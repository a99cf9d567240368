import * as assert from 'assert';
import { sortYaml } from '../../sort';

describe('sortYaml', () => {
	it('sorts top-level keys', () => {
		assert.strictEqual(sortYaml('b: 1\na: 2\n'), 'a: 2\nb: 1\n');
	});

	it('keeps inline comments on values', () => {
		assert.strictEqual(sortYaml('b: 1 # one\na: 2\n'), 'a: 2\nb: 1 # one\n');
	});

	it('respects ignoreKeys', () => {
		assert.strictEqual(sortYaml('b: 1\na: 2\n', ['b']), 'b: 1\na: 2\n');
	});

	it('sorts nested maps', () => {
		assert.strictEqual(sortYaml('x:\n  d: 1\n  c: 2\n'), 'x:\n  c: 2\n  d: 1\n');
	});
});
