<?php

namespace App\Tests\Unit\Shipping;

use App\Entity\Parcel;
use App\Shipping\ShippingRateCalculator;
use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\TestCase;

final class ShippingRateCalculatorTest extends TestCase
{
    #[DataProvider('weights')]
    public function testRate(int $grams, int $expected): void
    {
        self::assertSame($expected, (new ShippingRateCalculator())->rateFor((new Parcel())->setWeightGrams($grams)));
    }

    public static function weights(): iterable
    {
        yield 'light' => [800, 610];
        yield 'two kilos' => [2000, 730];
    }
}
