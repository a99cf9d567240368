import { db } from './db';

export async function listInvoices(orgId: string) {
	return db.invoice.findMany({ where: { orgId }, orderBy: { issuedAt: 'desc' } });
}
