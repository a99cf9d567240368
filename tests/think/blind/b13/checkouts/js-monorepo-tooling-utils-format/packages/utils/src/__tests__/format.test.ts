import { describe, it, expect } from 'vitest'
import { formatCurrency, formatPercent } from '../format'

describe('formatCurrency', () => {
  it('formats minor units as dollars', () => {
    expect(formatCurrency(123456)).toBe('$1,234.56')
  })
  it('respects the currency', () => {
    expect(formatCurrency(500, 'EUR', 'de-DE')).toBe('5,00 €')
  })
})

describe('formatPercent', () => {
  it('formats a ratio with one decimal by default', () => {
    expect(formatPercent(0.1234)).toBe('12.3%')
  })
})
