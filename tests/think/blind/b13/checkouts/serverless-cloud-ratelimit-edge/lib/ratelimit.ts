import { Ratelimit } from '@upstash/ratelimit';
import { Redis } from '@upstash/redis';

export const REQUESTS_PER_MINUTE = 60;

export const limiter = new Ratelimit({
  redis: Redis.fromEnv(),
  limiter: Ratelimit.slidingWindow(REQUESTS_PER_MINUTE, '1 m'),
  prefix: 'acme-portal',
});
