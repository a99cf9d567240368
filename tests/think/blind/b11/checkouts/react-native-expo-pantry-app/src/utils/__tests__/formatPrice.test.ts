import { formatPrice } from '../formatPrice';

describe('formatPrice', () => {
  it('formats USD minor units', () => {
    expect(formatPrice(1999, 'USD')).toBe('$19.99');
  });

  it('formats EUR in a German locale', () => {
    expect(formatPrice(500, 'EUR', 'de-DE')).toBe('5,00\u00a0€');
  });
});
