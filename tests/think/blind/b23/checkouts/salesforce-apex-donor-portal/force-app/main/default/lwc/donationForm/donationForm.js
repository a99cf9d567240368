import { LightningElement } from 'lwc';

export default class DonationForm extends LightningElement {
    amount;
    recurring = false;

    get submitDisabled() {
        return !this.amount || Number(this.amount) <= 0;
    }

    handleAmount(event) {
        this.amount = event.target.value;
    }

    handleRecurring(event) {
        this.recurring = event.target.checked;
    }
}
