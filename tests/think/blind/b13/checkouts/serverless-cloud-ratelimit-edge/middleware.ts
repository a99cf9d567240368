import { NextResponse, type NextRequest } from 'next/server';
import { limiter } from './lib/ratelimit';

export const config = { matcher: '/api/:path*' };

export async function middleware(req: NextRequest) {
  const ip = req.ip ?? req.headers.get('x-forwarded-for') ?? 'anonymous';
  const { success, remaining } = await limiter.limit(ip);
  if (!success) {
    return new NextResponse('Too Many Requests', { status: 429 });
  }
  const res = NextResponse.next();
  res.headers.set('X-RateLimit-Remaining', String(remaining));
  return res;
}
