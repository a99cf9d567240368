<?php

namespace App\Services;

use App\Models\OrderLine;

class PriceCalculator
{
    public function __construct(private TaxRates $taxRates)
    {
    }

    public function lineTotal(OrderLine $line): int
    {
        $net = $line->unit_price_cents * $line->quantity;

        return $net + $this->taxRates->taxFor($line->product, $net);
    }

    public function orderTotal(iterable $lines): int
    {
        $total = 0;
        foreach ($lines as $line) {
            $total += $this->lineTotal($line);
        }

        return $total;
    }
}
