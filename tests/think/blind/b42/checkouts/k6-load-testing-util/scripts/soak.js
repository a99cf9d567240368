import http from 'k6/http';
import { check, sleep } from 'k6';
import { envInt } from '../lib/util.js';

export const options = {
  stages: [
    { duration: '5m', target: envInt(__ENV.SOAK_VUS, 50) },
    { duration: __ENV.SOAK_HOLD || '2h', target: envInt(__ENV.SOAK_VUS, 50) },
    { duration: '5m', target: 0 },
  ],
  thresholds: { http_req_failed: ['rate<0.01'], http_req_duration: ['p(99)<1500'] },
};

export default function () {
  const res = http.get(`${__ENV.BASE_URL || 'http://localhost:8080'}/api/products`);
  check(res, { 'status is 200': (r) => r.status === 200 });
  sleep(1);
}
