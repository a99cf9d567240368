import * as assert from 'assert';
import { formatTable } from '../../formatter';

suite('formatTable', () => {
	test('pads cells to column width', () => {
		const input = '|a|bb|\n|-|-|\n|ccc|d|';
		assert.strictEqual(formatTable(input), '| a   | bb |\n| --- | -- |\n| ccc | d  |');
	});

	test('keeps alignment colons', () => {
		assert.strictEqual(formatTable('|a|b|\n|:-|-:|\n|x|y|'), '| a  |  b |\n| :- | -: |\n| x  |  y |');
	});
});
