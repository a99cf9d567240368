<?php

namespace App\Service;

use App\Entity\Cart;

final class DiscountCalculator
{
    public function __construct(private readonly int $loyaltyPercent = 5)
    {
    }

    public function discountFor(Cart $cart): int
    {
        if (!$cart->getCustomer()?->isLoyaltyMember()) {
            return 0;
        }

        return intdiv($cart->getSubtotalCents() * $this->loyaltyPercent, 100);
    }
}
