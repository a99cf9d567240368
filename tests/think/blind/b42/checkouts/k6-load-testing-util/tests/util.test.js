import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pick, envInt } from '../lib/util.js';

test('pick returns an element of the array', () => {
  assert.ok(['a', 'b', 'c'].includes(pick(['a', 'b', 'c'])));
});

test('envInt falls back on garbage', () => {
  assert.equal(envInt('abc', 5), 5);
  assert.equal(envInt('12', 5), 12);
});
