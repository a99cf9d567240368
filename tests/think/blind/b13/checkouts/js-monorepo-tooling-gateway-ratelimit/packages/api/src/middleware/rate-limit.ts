import type { FastifyReply, FastifyRequest } from 'fastify'
import { FixedWindowCounter } from '../lib/counter'

export interface RateLimitOptions {
  max: number
  windowMs: number
}

export function rateLimit(opts: RateLimitOptions) {
  const counter = new FixedWindowCounter(opts.windowMs)
  return async function onRequest(req: FastifyRequest, reply: FastifyReply) {
    const key = req.ip
    const used = counter.hit(key)
    reply.header('x-ratelimit-limit', String(opts.max))
    reply.header('x-ratelimit-remaining', String(Math.max(0, opts.max - used)))
    if (used > opts.max) {
      return reply.code(429).send({ error: 'rate_limited' })
    }
  }
}
