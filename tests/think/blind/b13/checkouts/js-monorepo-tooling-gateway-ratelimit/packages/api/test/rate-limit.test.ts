import { describe, it, expect } from 'vitest'
import { buildApp } from '../src/app'

describe('rate limit middleware', () => {
  it('allows requests under the global limit', async () => {
    const app = await buildApp({ logger: false, rateLimit: { max: 5, windowMs: 1000 } })
    const res = await app.inject({ method: 'GET', url: '/v1/ping' })
    expect(res.statusCode).toBe(200)
    expect(res.headers['x-ratelimit-remaining']).toBe('4')
  })

  it('returns 429 once the global limit is exceeded', async () => {
    const app = await buildApp({ logger: false, rateLimit: { max: 1, windowMs: 1000 } })
    await app.inject({ method: 'GET', url: '/v1/ping' })
    const res = await app.inject({ method: 'GET', url: '/v1/ping' })
    expect(res.statusCode).toBe(429)
  })
})
