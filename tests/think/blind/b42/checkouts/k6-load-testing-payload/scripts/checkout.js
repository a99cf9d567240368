import http from 'k6/http';
import { check, sleep } from 'k6';
import { login } from '../lib/auth.js';
import { cartPayload } from '../lib/payload.js';

const BASE_URL = __ENV.BASE_URL || 'http://localhost:8080';

export const options = {
  thresholds: {
    http_req_duration: ['p(95)<500'],
    http_req_failed: ['rate<0.01'],
    checks: ['rate>0.99'],
  },
};

export function setup() {
  return { token: login(BASE_URL) };
}

export default function (data) {
  const headers = { Authorization: `Bearer ${data.token}`, 'Content-Type': 'application/json' };
  const res = http.post(`${BASE_URL}/api/cart/checkout`, JSON.stringify(cartPayload()), { headers });
  check(res, { 'status is 200': (r) => r.status === 200 });
  sleep(1);
}
