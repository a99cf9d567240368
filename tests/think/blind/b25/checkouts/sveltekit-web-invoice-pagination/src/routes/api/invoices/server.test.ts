import { describe, expect, it, vi } from 'vitest';

vi.mock('$lib/server/invoices', () => ({
	listInvoices: vi.fn(async () => [{ id: 'inv_1' }, { id: 'inv_2' }])
}));

import { GET } from './+server';

describe('GET /api/invoices', () => {
	it('returns the org invoices', async () => {
		const res = await GET({ locals: { orgId: 'org_1' }, url: new URL('http://x/api/invoices') } as never);
		expect((await res.json()).invoices).toHaveLength(2);
	});
});
