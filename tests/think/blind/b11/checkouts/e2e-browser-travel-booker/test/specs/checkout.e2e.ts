import CheckoutPage from '../pageobjects/checkout.page';

describe('checkout', () => {
  it('books a seat with a test card', async () => {
    await CheckoutPage.open();
    await CheckoutPage.travellerName.setValue('Ada Lovelace');
    await CheckoutPage.cardNumber.setValue('4111111111111111');
    await CheckoutPage.pay();
    await expect(CheckoutPage.confirmation).toBeDisplayed();
  });
});
