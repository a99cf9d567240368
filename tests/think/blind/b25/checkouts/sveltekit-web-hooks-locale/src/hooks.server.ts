import type { Handle } from '@sveltejs/kit';

const SUPPORTED = ['en', 'de'] as const;
export type Locale = (typeof SUPPORTED)[number];

export function localeFromCookie(value: string | undefined): Locale {
	return SUPPORTED.includes(value as Locale) ? (value as Locale) : 'en';
}

export const handle: Handle = async ({ event, resolve }) => {
	const locale = localeFromCookie(event.cookies.get('lang'));
	event.locals.locale = locale;
	return resolve(event);
};
