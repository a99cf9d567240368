import { json } from '@sveltejs/kit';
import type { RequestHandler } from './$types';
import { listInvoices } from '$lib/server/invoices';

export const GET: RequestHandler = async ({ locals }) => {
	const invoices = await listInvoices(locals.orgId);
	return json({ invoices });
};
