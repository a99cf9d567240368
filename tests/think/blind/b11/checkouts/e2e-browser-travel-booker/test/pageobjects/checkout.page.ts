import Page from './page';

class CheckoutPage extends Page {
  get travellerName() { return $('#traveller-name'); }
  get cardNumber() { return $('#card-number'); }
  get payButton() { return $('.btn-pay'); }
  get confirmation() { return $('[data-test="booking-confirmation"]'); }

  async pay() {
    await this.payButton.waitForClickable();
    await this.payButton.click();
  }

  open() { return super.open('checkout'); }
}

export default new CheckoutPage();
