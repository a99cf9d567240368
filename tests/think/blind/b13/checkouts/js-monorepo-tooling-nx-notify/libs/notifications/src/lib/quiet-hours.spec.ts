import { isWithinQuietHours } from './quiet-hours';

describe('isWithinQuietHours', () => {
  const qh = { startHour: 1, endHour: 6, timezone: 'Europe/Berlin' };

  it('is true inside the window', () => {
    expect(isWithinQuietHours(new Date('2026-03-02T02:30:00Z'), qh)).toBe(true);
  });

  it('is false outside the window', () => {
    expect(isWithinQuietHours(new Date('2026-03-02T12:00:00Z'), qh)).toBe(false);
  });
});
