import { describe, it, expect } from 'vitest';
import { NextRequest } from 'next/server';
import { middleware } from '../middleware';

describe('rate limit middleware', () => {
  it('sets the remaining header', async () => {
    const res = await middleware(new NextRequest('https://portal.acme.io/api/orders'));
    expect(res.headers.get('X-RateLimit-Remaining')).not.toBeNull();
  });
});
