import { findPromo, isPromoActive } from '../promo';

const SUMMER = { code: 'SUMMER24', percentOff: 15, startsAt: new Date('2024-06-01'), endsAt: new Date('2024-09-01') };

describe('findPromo', () => {
  it('finds an exact code', () => {
    expect(findPromo('SUMMER24', [SUMMER])).toBe(SUMMER);
  });
});

describe('isPromoActive', () => {
  it('is active inside the window', () => {
    expect(isPromoActive(SUMMER, new Date('2024-07-04'))).toBe(true);
  });
});
