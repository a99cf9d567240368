<?php
declare(strict_types=1);

namespace Acme\Checkout\Model;

use Magento\Framework\App\Config\ScopeConfigInterface;
use Magento\Store\Model\ScopeInterface;

class FeeCalculator
{
    private const XML_PATH_TYPE = 'acme_checkout/handling_fee/type';
    private const XML_PATH_RATE = 'acme_checkout/handling_fee/rate';

    public function __construct(
        private readonly ScopeConfigInterface $scopeConfig
    ) {
    }

    public function calculate(float $subtotal): float
    {
        $rate = (float) $this->scopeConfig->getValue(self::XML_PATH_RATE, ScopeInterface::SCOPE_STORE);
        if ($this->scopeConfig->getValue(self::XML_PATH_TYPE, ScopeInterface::SCOPE_STORE) === 'percent') {
            return round($subtotal * $rate / 100, 2);
        }
        return round($rate, 2);
    }
}
