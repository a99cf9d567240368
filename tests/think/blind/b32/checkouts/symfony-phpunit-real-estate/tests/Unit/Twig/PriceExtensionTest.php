<?php

namespace App\Tests\Unit\Twig;

use App\Twig\PriceExtension;
use PHPUnit\Framework\TestCase;

final class PriceExtensionTest extends TestCase
{
    public function testFormatsEuros(): void
    {
        self::assertSame('1.250,00 EUR', (new PriceExtension())->formatPrice(125000));
    }
}
