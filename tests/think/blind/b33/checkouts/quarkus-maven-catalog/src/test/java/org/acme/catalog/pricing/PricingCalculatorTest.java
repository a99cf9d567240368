package org.acme.catalog.pricing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

class PricingCalculatorTest {

    private final PricingCalculator calc = new PricingCalculator();

    @Test
    void netFromGrossGermanVat() {
        assertEquals(new BigDecimal("10.00"), calc.net(new BigDecimal("11.90"), new BigDecimal("0.19")));
    }

    @Test
    void grossFromNet() {
        assertEquals(new BigDecimal("11.90"), calc.gross(new BigDecimal("10.00"), new BigDecimal("0.19")));
    }
}
