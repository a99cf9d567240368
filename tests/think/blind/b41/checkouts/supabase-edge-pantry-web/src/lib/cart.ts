export type Line = { price_cents: number; qty: number };
export type CartOpts = { taxRate?: number; discountPct?: number };

export function cartTotal(lines: Line[], opts: CartOpts = {}): number {
  const subtotal = lines.reduce((sum, l) => sum + l.price_cents * l.qty, 0);
  const discounted = subtotal * (1 - (opts.discountPct ?? 0) / 100);
  return Math.round(discounted * (1 + (opts.taxRate ?? 0)));
}
