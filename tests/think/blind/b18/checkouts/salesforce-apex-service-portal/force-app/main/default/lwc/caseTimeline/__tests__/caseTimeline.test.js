import { createElement } from 'lwc';
import CaseTimeline from 'c/caseTimeline';
import getCaseEvents from '@salesforce/apex/CaseTimelineController.getCaseEvents';

jest.mock(
    '@salesforce/apex/CaseTimelineController.getCaseEvents',
    () => {
        const { createApexTestWireAdapter } = require('@salesforce/sfdx-lwc-jest');
        return { default: createApexTestWireAdapter(jest.fn()) };
    },
    { virtual: true }
);

const EVENTS = [
    { id: '1', label: 'Case created', occurredAt: '2025-01-02T10:00:00Z', type: 'system' },
    { id: '2', label: 'Email sent', occurredAt: '2025-01-03T09:00:00Z', type: 'email' }
];

describe('c-case-timeline', () => {
    afterEach(() => {
        while (document.body.firstChild) {
            document.body.removeChild(document.body.firstChild);
        }
    });

    it('renders one item per event', async () => {
        const element = createElement('c-case-timeline', { is: CaseTimeline });
        document.body.appendChild(element);
        getCaseEvents.emit(EVENTS);
        await Promise.resolve();
        expect(element.shadowRoot.querySelectorAll('li').length).toBe(2);
    });
});
