<?php

use App\Models\OrderLine;
use App\Models\Product;
use App\Services\PriceCalculator;

it('multiplies unit price by quantity and adds tax', function () {
    $product = Product::factory()->taxRate(0.20)->create();
    $line = OrderLine::factory()->for($product)->create(['unit_price_cents' => 1000, 'quantity' => 3]);

    expect(app(PriceCalculator::class)->lineTotal($line))->toBe(3600);
});

it('sums all lines of an order', function () {
    $product = Product::factory()->taxRate(0.0)->create();
    $lines = OrderLine::factory()->for($product)->count(2)->create(['unit_price_cents' => 250, 'quantity' => 2]);

    expect(app(PriceCalculator::class)->orderTotal($lines))->toBe(1000);
});
