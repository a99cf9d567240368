import { describe, expect, it } from 'vitest';
import { localeFromCookie } from './hooks.server';

describe('localeFromCookie', () => {
	it('accepts supported locales', () => {
		expect(localeFromCookie('de')).toBe('de');
	});

	it('falls back to en', () => {
		expect(localeFromCookie('fr')).toBe('en');
		expect(localeFromCookie(undefined)).toBe('en');
	});
});
