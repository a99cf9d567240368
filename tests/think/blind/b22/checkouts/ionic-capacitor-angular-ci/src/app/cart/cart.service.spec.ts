import { TestBed } from '@angular/core/testing';
import { CartService } from './cart.service';

describe('CartService', () => {
  let service: CartService;

  beforeEach(() => {
    TestBed.configureTestingModule({});
    service = TestBed.inject(CartService);
  });

  it('sums line totals', () => {
    service.add({ sku: 'A1', price: 2.5 }, 2);
    service.add({ sku: 'B7', price: 1.25 }, 1);
    expect(service.total()).toBeCloseTo(6.25);
  });
});
