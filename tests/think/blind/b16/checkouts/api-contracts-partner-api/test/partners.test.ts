import request from 'supertest';
import { app } from '../src/app';

describe('GET /partners/:id', () => {
  it('returns 404 for unknown partners', async () => {
    await request(app).get('/partners/nope').expect(404);
  });
});
