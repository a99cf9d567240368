import { describe, expect, it } from 'vitest';
import { shouldLock } from '../src/kiosk-lock';

describe('shouldLock', () => {
  it('locks after the idle timeout', () => {
    expect(shouldLock({ idleMs: 120_001, timeoutMs: 120_000 })).toBe(true);
  });
});
