import http from 'k6/http';

export interface Session {
  token: string;
}

export function login(baseUrl: string, user = 'loadtest', pass = 'loadtest'): Session {
  const res = http.post(`${baseUrl}/api/login`, JSON.stringify({ user, pass }), {
    headers: { 'Content-Type': 'application/json' },
  });
  return { token: res.json('access_token') as string };
}
