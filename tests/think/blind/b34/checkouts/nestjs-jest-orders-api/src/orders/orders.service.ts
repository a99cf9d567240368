import { Injectable, NotFoundException } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { CreateOrderDto } from './dto/create-order.dto';
import { Order, OrderStatus } from './order.entity';

@Injectable()
export class OrdersService {
  constructor(
    @InjectRepository(Order) private readonly orders: Repository<Order>,
    private readonly config: ConfigService,
  ) {}

  async create(dto: CreateOrderDto): Promise<Order> {
    const total = dto.items.reduce((sum, i) => sum + i.unitPrice * i.quantity, 0);
    return this.orders.save(this.orders.create({ customerId: dto.customerId, total }));
  }

  async findOne(id: string): Promise<Order> {
    const order = await this.orders.findOne({ where: { id } });
    if (!order) throw new NotFoundException(`Order ${id} not found`);
    return order;
  }

  async list(page = 1): Promise<Order[]> {
    const pageSize = this.config.get<number>('ORDERS_PAGE_SIZE', 20);
    return this.orders.find({ skip: (page - 1) * pageSize, take: pageSize, order: { createdAt: 'DESC' } });
  }
}
