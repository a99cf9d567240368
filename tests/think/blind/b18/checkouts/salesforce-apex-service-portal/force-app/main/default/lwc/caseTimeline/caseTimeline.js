import { LightningElement, api, wire } from 'lwc';
import getCaseEvents from '@salesforce/apex/CaseTimelineController.getCaseEvents';

export default class CaseTimeline extends LightningElement {
    @api recordId;
    events = [];
    error;

    @wire(getCaseEvents, { caseId: '$recordId' })
    wiredEvents({ data, error }) {
        if (data) {
            this.events = data;
            this.error = undefined;
        } else if (error) {
            this.error = error;
            this.events = [];
        }
    }

    get hasEvents() {
        return this.events.length > 0;
    }
}
