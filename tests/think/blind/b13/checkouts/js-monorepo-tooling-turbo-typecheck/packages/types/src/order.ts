export type OrderStatus = 'pending' | 'paid' | 'shipped' | 'cancelled'

export interface OrderLine {
  sku: string
  quantity: number
  unitPrice: number
}

export interface Order {
  id: string
  customerId: string
  status: OrderStatus
  lines: OrderLine[]
  total: number
  currency: string
  createdAt: string
}
