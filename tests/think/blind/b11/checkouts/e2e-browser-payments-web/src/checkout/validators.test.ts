import { describe, expect, it } from 'vitest';
import { isCardNumberValid, isExpiryValid } from './validators';

const NOV_2025 = new Date(2025, 10, 15);

describe('isExpiryValid', () => {
  it('accepts a future year', () => {
    expect(isExpiryValid(1, 27, NOV_2025)).toBe(true);
  });
  it('rejects a past year', () => {
    expect(isExpiryValid(12, 24, NOV_2025)).toBe(false);
  });
  it('rejects month 13', () => {
    expect(isExpiryValid(13, 27, NOV_2025)).toBe(false);
  });
});

describe('isCardNumberValid', () => {
  it('passes a Luhn-valid number', () => {
    expect(isCardNumberValid('4242424242424242')).toBe(true);
  });
});
