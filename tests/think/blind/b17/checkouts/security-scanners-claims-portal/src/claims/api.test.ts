import { fetchClaim } from './api';

test('encodes id', async () => {
  global.fetch = jest.fn().mockResolvedValue({ ok: true, json: async () => ({}) }) as any;
  await fetchClaim('a/b');
  expect(global.fetch).toHaveBeenCalledWith('/api/claims/a%2Fb');
});
