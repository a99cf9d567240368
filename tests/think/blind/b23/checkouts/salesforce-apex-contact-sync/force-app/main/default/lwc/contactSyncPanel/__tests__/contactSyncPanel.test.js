import { createElement } from 'lwc';
import ContactSyncPanel from 'c/contactSyncPanel';
import syncFromErp from '@salesforce/apex/ContactSyncService.syncFromErp';

jest.mock('@salesforce/apex/ContactSyncService.syncFromErp', () => ({ default: jest.fn() }), { virtual: true });

describe('c-contact-sync-panel', () => {
    it('shows the synced count after clicking sync', async () => {
        syncFromErp.mockResolvedValue({ synced: 3, skipped: 0 });
        const el = createElement('c-contact-sync-panel', { is: ContactSyncPanel });
        el.recordId = '001000000000001';
        document.body.appendChild(el);
        el.shadowRoot.querySelector('lightning-button').click();
        await Promise.resolve();
        await Promise.resolve();
        expect(el.shadowRoot.querySelector('.sync-summary').textContent).toContain('3 synced');
    });
});
