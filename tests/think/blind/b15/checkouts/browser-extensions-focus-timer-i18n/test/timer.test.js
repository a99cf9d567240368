import { describe, expect, it } from 'vitest';
import { formatRemaining } from '../src/timer.js';

describe('formatRemaining', () => {
  it('formats minutes and seconds', () => {
    expect(formatRemaining(125_000)).toBe('2:05');
  });
  it('never goes negative', () => {
    expect(formatRemaining(-10)).toBe('0:00');
  });
});
