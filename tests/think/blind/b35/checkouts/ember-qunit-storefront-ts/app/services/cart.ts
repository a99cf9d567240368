import Service from '@ember/service';
import { tracked } from '@glimmer/tracking';

export interface LineItem {
  sku: string;
  quantity: number;
  unitPriceCents: number;
}

export default class CartService extends Service {
  @tracked items: LineItem[] = [];

  get itemCount(): number {
    return this.items.reduce((n, i) => n + i.quantity, 0);
  }

  add(sku: string, unitPriceCents: number): void {
    const existing = this.items.find((i) => i.sku === sku);
    if (existing) {
      existing.quantity += 1;
      this.items = [...this.items];
    } else {
      this.items = [...this.items, { sku, quantity: 1, unitPriceCents }];
    }
  }
}

declare module '@ember/service' {
  interface Registry {
    cart: CartService;
  }
}
