import { createElement } from 'lwc';
import DonationForm from 'c/donationForm';

describe('c-donation-form', () => {
    afterEach(() => {
        while (document.body.firstChild) {
            document.body.removeChild(document.body.firstChild);
        }
    });

    it('disables submit until an amount is entered', () => {
        const el = createElement('c-donation-form', { is: DonationForm });
        document.body.appendChild(el);
        const submit = el.shadowRoot.querySelector('lightning-button[data-id="submit"]');
        expect(submit.disabled).toBe(true);
    });
});
