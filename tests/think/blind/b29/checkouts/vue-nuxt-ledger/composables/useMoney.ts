export function useMoney() {
  const toCents = (amount: number) => Math.round(amount * 100)
  const fromCents = (cents: number) => cents / 100
  const sum = (values: number[]) => fromCents(values.reduce((acc, v) => acc + toCents(v), 0))
  return { toCents, fromCents, sum }
}
