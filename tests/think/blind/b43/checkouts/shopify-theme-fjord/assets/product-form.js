class ProductForm extends HTMLElement {
  constructor() {
    super();
    this.form = this.querySelector('form');
    this.form.addEventListener('submit', this.onSubmit.bind(this));
  }

  async onSubmit(evt) {
    evt.preventDefault();
    const res = await fetch(window.routes.cart_add_url, { method: 'POST', body: new FormData(this.form), headers: { Accept: 'application/javascript' } });
    const data = await res.json();
    document.dispatchEvent(new CustomEvent('cart:updated', { detail: data }));
  }
}
customElements.define('product-form', ProductForm);
