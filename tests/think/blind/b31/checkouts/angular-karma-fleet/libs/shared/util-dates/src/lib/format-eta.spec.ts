import { formatEta } from './format-eta';

describe('formatEta', () => {
  it('formats minutes', () => {
    expect(formatEta(300)).toBe('5 min');
  });

  it('formats hours and minutes', () => {
    expect(formatEta(3900)).toBe('1 h 5 min');
  });
});
