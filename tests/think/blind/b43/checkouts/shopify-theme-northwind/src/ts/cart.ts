export interface CartLine {
  key: string;
  quantity: number;
  final_line_price: number;
}

export async function updateLine(key: string, quantity: number): Promise<CartLine[]> {
  const res = await fetch('/cart/change.js', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ id: key, quantity }),
  });
  const cart = await res.json();
  return cart.items as CartLine[];
}
