import { describe, expect, it } from 'vitest';
import { nextEvent } from './tides';

describe('nextEvent', () => {
	it('returns the first event after now', () => {
		const at = (h: number) => new Date(Date.UTC(2026, 0, 1, h));
		const events = [
			{ kind: 'low' as const, at: at(2), heightM: 0.4 },
			{ kind: 'high' as const, at: at(8), heightM: 3.1 }
		];
		expect(nextEvent(events, at(5))?.kind).toBe('high');
	});
});
