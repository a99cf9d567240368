import { TestBed } from '@angular/core/testing';
import { CartService } from './cart.service';

describe('CartService', () => {
  let service: CartService;

  beforeEach(() => {
    TestBed.configureTestingModule({});
    service = TestBed.inject(CartService);
  });

  it('sums line totals into the subtotal', () => {
    service.add({ sku: 'A1', unitPrice: 10, quantity: 2 });
    service.add({ sku: 'B2', unitPrice: 5, quantity: 1 });
    expect(service.subtotal()).toBe(25);
  });

  it('adds shipping to the total', () => {
    service.add({ sku: 'A1', unitPrice: 10, quantity: 1 });
    expect(service.total()).toBeCloseTo(14.99, 2);
  });
});
