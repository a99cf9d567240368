import { describe, it, expect, vi, beforeEach } from 'vitest';

describe('loadLumen', () => {
  beforeEach(() => { vi.resetModules(); });

  it('returns the same promise on repeated calls', async () => {
    const { loadLumen } = await import('./loader');
    expect(loadLumen()).toBe(loadLumen());
  });
});
