// Pure helpers (no k6 imports) so they can be unit-tested with node --test.
export const PRODUCTS = [
  { sku: 'TSHIRT-001', price: 1999 },
  { sku: 'MUG-014', price: 1299 },
  { sku: 'HOODIE-007', price: 4999 },
  { sku: 'CAP-003', price: 1599 },
];

export function cartPayload(items = [{ sku: 'TSHIRT-001', qty: 1 }]) {
  return { currency: 'EUR', items };
}

export function cartTotal(items) {
  return items.reduce((sum, it) => sum + PRODUCTS.find((p) => p.sku === it.sku).price * it.qty, 0);
}
