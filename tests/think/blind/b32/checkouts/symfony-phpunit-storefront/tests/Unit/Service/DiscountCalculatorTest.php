<?php

namespace App\Tests\Unit\Service;

use App\Entity\Cart;
use App\Entity\Customer;
use App\Service\DiscountCalculator;
use PHPUnit\Framework\TestCase;

final class DiscountCalculatorTest extends TestCase
{
    public function testNoDiscountForGuests(): void
    {
        $cart = (new Cart())->setSubtotalCents(10_000);

        self::assertSame(0, (new DiscountCalculator())->discountFor($cart));
    }

    public function testLoyaltyMembersGetFivePercent(): void
    {
        $cart = (new Cart())
            ->setCustomer((new Customer())->setLoyaltyMember(true))
            ->setSubtotalCents(10_000);

        self::assertSame(500, (new DiscountCalculator())->discountFor($cart));
    }
}
