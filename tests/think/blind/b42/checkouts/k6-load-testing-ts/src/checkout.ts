import http from 'k6/http';
import { check, sleep } from 'k6';
import { Options } from 'k6/options';
import { login, Session } from './lib/auth';

const BASE_URL = __ENV.BASE_URL || 'http://localhost:8080';

export const options: Options = {
  vus: 10,
  duration: '1m',
  thresholds: { http_req_duration: ['p(95)<500'] },
};

export function setup(): Session {
  return login(BASE_URL);
}

export default function (session: Session) {
  const res = http.post(`${BASE_URL}/api/cart/checkout`, JSON.stringify({ items: [{ sku: 'TSHIRT-001', qty: 1 }] }), {
    headers: { Authorization: `Bearer ${session.token}`, 'Content-Type': 'application/json' },
  });
  check(res, { 'status is 200': (r) => r.status === 200 });
  sleep(1);
}
