/**
 * Example of [Jest](https://jestjs.io/docs/getting-started) unit tests
 */
import { requestAPI } from '../handler';

jest.mock('@jupyterlab/services', () => ({
  ServerConnection: {
    makeSettings: () => ({ baseUrl: 'http://localhost:8888/' }),
    makeRequest: jest.fn(async () => ({ ok: true, text: async () => '{"data": "ok"}' })),
    ResponseError: class extends Error {},
    NetworkError: class extends Error {}
  }
}));

describe('jupyterlab-acme', () => {
  it('parses the server reply', async () => {
    const reply = await requestAPI<any>('get-example');
    expect(reply.data).toBe('ok');
  });
});
