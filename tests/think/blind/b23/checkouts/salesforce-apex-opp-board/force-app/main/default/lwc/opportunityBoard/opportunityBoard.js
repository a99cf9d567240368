import { LightningElement, wire } from 'lwc';
import getOpenOpportunities from '@salesforce/apex/OpportunityBoardController.getOpenOpportunities';

const STAGES = ['Prospecting', 'Qualification', 'Proposal', 'Negotiation'];

export default class OpportunityBoard extends LightningElement {
    columns = [];
    error;

    @wire(getOpenOpportunities)
    wiredOpps({ error, data }) {
        if (data) {
            this.columns = STAGES.map((stage) => ({
                stage,
                cards: data.filter((o) => o.StageName === stage)
            }));
            this.error = undefined;
        } else if (error) {
            this.error = error;
            this.columns = [];
        }
    }
}
