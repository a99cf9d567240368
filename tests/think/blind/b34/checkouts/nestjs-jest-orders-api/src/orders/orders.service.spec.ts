import { Test, TestingModule } from '@nestjs/testing';
import { ConfigService } from '@nestjs/config';
import { getRepositoryToken } from '@nestjs/typeorm';
import { OrdersService } from './orders.service';
import { Order } from './order.entity';

describe('OrdersService', () => {
  let service: OrdersService;
  const repo = { findOne: jest.fn(), find: jest.fn(), save: jest.fn(), create: jest.fn((x) => x) };

  beforeEach(async () => {
    const module: TestingModule = await Test.createTestingModule({
      providers: [
        OrdersService,
        { provide: getRepositoryToken(Order), useValue: repo },
        { provide: ConfigService, useValue: { get: jest.fn((_k, d) => d) } },
      ],
    }).compile();

    service = module.get<OrdersService>(OrdersService);
  });

  it('computes the total from the items', async () => {
    repo.save.mockImplementation(async (o) => ({ id: 'o1', ...o }));
    const order = await service.create({
      customerId: 'c1',
      items: [{ sku: 'A', quantity: 2, unitPrice: 150 }],
    });
    expect(order.total).toBe(300);
  });

  it('throws NotFound for a missing order', async () => {
    repo.findOne.mockResolvedValue(null);
    await expect(service.findOne('nope')).rejects.toThrow('Order nope not found');
  });
});
