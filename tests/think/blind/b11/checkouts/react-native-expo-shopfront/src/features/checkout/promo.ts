import type { PromoCode } from './types';

export function findPromo(input: string, promos: PromoCode[]): PromoCode | undefined {
  return promos.find((p) => p.code === input);
}

export function isPromoActive(promo: PromoCode, now = new Date()): boolean {
  return promo.startsAt <= now && now < promo.endsAt;
}
