import { Test } from '@nestjs/testing';
import { mockDeep } from 'jest-mock-extended';
import Stripe from 'stripe';
import { PrismaService } from '../prisma/prisma.service';
import { STRIPE_CLIENT } from '../stripe/stripe.constants';
import { PaymentsService } from './payments.service';

describe('PaymentsService', () => {
  const prisma = mockDeep<PrismaService>();
  const stripe = mockDeep<Stripe>();
  let service: PaymentsService;

  beforeEach(async () => {
    const moduleRef = await Test.createTestingModule({
      providers: [
        PaymentsService,
        { provide: PrismaService, useValue: prisma },
        { provide: STRIPE_CLIENT, useValue: stripe },
      ],
    }).compile();
    service = moduleRef.get(PaymentsService);
  });

  it('creates a payment intent in cents', async () => {
    stripe.paymentIntents.create.mockResolvedValue({ id: 'pi_1', status: 'requires_payment_method' } as any);
    await service.createIntent('ord_1', 12.5);
    expect(stripe.paymentIntents.create).toHaveBeenCalledWith(
      expect.objectContaining({ amount: 1250, currency: 'eur' }),
    );
  });
});
