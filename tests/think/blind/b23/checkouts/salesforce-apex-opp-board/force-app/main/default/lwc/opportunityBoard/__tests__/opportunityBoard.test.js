import { createElement } from 'lwc';
import OpportunityBoard from 'c/opportunityBoard';
import getOpenOpportunities from '@salesforce/apex/OpportunityBoardController.getOpenOpportunities';

jest.mock(
    '@salesforce/apex/OpportunityBoardController.getOpenOpportunities',
    () => {
        const { createApexTestWireAdapter } = require('@salesforce/sfdx-lwc-jest');
        return { default: createApexTestWireAdapter(jest.fn()) };
    },
    { virtual: true }
);

const OPPS = [
    { Id: '006000000000001', Name: 'Big deal', StageName: 'Proposal', Amount: 50000 },
    { Id: '006000000000002', Name: 'Small deal', StageName: 'Prospecting', Amount: 1200 }
];

describe('c-opportunity-board', () => {
    afterEach(() => {
        while (document.body.firstChild) {
            document.body.removeChild(document.body.firstChild);
        }
    });

    it('renders one column per stage', async () => {
        const el = createElement('c-opportunity-board', { is: OpportunityBoard });
        document.body.appendChild(el);
        getOpenOpportunities.emit(OPPS);
        await Promise.resolve();
        expect(el.shadowRoot.querySelectorAll('.stage-column').length).toBe(4);
    });
});
