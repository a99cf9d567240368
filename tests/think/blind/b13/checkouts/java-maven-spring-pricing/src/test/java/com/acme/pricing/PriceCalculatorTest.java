package com.acme.pricing;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;

import static org.assertj.core.api.Assertions.assertThat;

class PriceCalculatorTest {

    private final PriceCalculator calc = new PriceCalculator(new VatPolicy());

    @Test
    void appliesGermanVat() {
        assertThat(calc.lineTotal(new BigDecimal("10.00"), 3, "DE")).isEqualByComparingTo("35.70");
    }

    @Test
    void zeroRatedExport() {
        assertThat(calc.lineTotal(new BigDecimal("10.00"), 3, "US")).isEqualByComparingTo("30.00");
    }
}
