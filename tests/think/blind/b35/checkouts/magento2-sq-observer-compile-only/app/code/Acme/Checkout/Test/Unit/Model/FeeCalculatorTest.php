<?php
declare(strict_types=1);

namespace Acme\Checkout\Test\Unit\Model;

use Acme\Checkout\Model\FeeCalculator;
use Magento\Framework\App\Config\ScopeConfigInterface;
use PHPUnit\Framework\TestCase;

class FeeCalculatorTest extends TestCase
{
    private ScopeConfigInterface $scopeConfig;
    private FeeCalculator $calculator;

    protected function setUp(): void
    {
        $this->scopeConfig = $this->createMock(ScopeConfigInterface::class);
        $this->calculator = new FeeCalculator($this->scopeConfig);
    }

    public function testPercentageFeeIsAppliedToSubtotal(): void
    {
        $this->scopeConfig->method('getValue')->willReturnMap([
            ['acme_checkout/handling_fee/type', 'store', null, 'percent'],
            ['acme_checkout/handling_fee/rate', 'store', null, '8'],
        ]);
        $this->assertEquals(12.0, $this->calculator->calculate(150.0));
    }

    public function testFixedFeeIgnoresSubtotal(): void
    {
        $this->scopeConfig->method('getValue')->willReturnMap([
            ['acme_checkout/handling_fee/type', 'store', null, 'fixed'],
            ['acme_checkout/handling_fee/rate', 'store', null, '4.5'],
        ]);
        $this->assertEquals(4.5, $this->calculator->calculate(80.0));
    }
}
