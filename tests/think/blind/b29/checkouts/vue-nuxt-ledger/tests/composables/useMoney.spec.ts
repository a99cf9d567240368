import { describe, it, expect } from 'vitest'

describe('useMoney', () => {
  it('sums without float drift', () => {
    const { sum } = useMoney()
    expect(sum([0.1, 0.2])).toBe(0.3)
  })

  it('round-trips cents', () => {
    const { toCents, fromCents } = useMoney()
    expect(fromCents(toCents(12.34))).toBe(12.34)
  })
})
