import { Injectable, computed, signal } from '@angular/core';
import { CartLine } from './cart.models';

@Injectable({ providedIn: 'root' })
export class CartService {
  readonly lines = signal<CartLine[]>([]);
  readonly shipping = signal(4.99);

  readonly subtotal = computed(() =>
    this.lines().reduce((sum, l) => sum + l.unitPrice * l.quantity, 0),
  );

  readonly total = computed(() => this.subtotal() + this.shipping());

  add(line: CartLine): void {
    this.lines.update((ls) => [...ls, line]);
  }
}
