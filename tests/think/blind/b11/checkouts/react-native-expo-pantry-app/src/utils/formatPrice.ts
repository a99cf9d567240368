export type CurrencyCode = 'USD' | 'EUR' | 'GBP' | 'JPY';

export function formatPrice(amountMinor: number, currency: CurrencyCode, locale = 'en-US'): string {
  const major = amountMinor / 100;
  return new Intl.NumberFormat(locale, {
    style: 'currency',
    currency,
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  }).format(major);
}
