import { LightningElement, api } from 'lwc';

export default class InvoiceSummary extends LightningElement {
    @api invoices = [];

    get total() {
        return this.invoices.reduce((sum, inv) => sum + inv.Amount__c, 0);
    }
}
