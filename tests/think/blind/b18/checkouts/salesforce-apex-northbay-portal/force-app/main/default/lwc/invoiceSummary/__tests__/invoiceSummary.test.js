import { createElement } from 'lwc';
import InvoiceSummary from 'c/invoiceSummary';

describe('c-invoice-summary', () => {
    it('sums invoice amounts', () => {
        const el = createElement('c-invoice-summary', { is: InvoiceSummary });
        el.invoices = [{ Amount__c: 10 }, { Amount__c: 5 }];
        document.body.appendChild(el);
        expect(el.shadowRoot.querySelector('.total').textContent).toBe('15');
    });
});
