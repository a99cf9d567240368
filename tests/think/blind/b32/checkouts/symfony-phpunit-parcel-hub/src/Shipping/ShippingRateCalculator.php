<?php

namespace App\Shipping;

use App\Entity\Parcel;

final class ShippingRateCalculator
{
    private const BASE_CENTS = 490;
    private const PER_KG_CENTS = 120;

    public function rateFor(Parcel $parcel): int
    {
        $kg = (int) ceil($parcel->getWeightGrams() / 1000);

        return self::BASE_CENTS + $kg * self::PER_KG_CENTS;
    }
}
