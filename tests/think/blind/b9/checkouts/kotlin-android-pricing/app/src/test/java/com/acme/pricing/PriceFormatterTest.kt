package com.acme.pricing

import com.google.common.truth.Truth.assertThat
import java.math.BigDecimal
import java.util.Currency
import java.util.Locale
import org.junit.Test

class PriceFormatterTest {
    private val formatter = PriceFormatter(Locale.US)

    @Test
    fun formatsUsdWithTwoDecimals() {
        assertThat(formatter.format(BigDecimal("12.5"), Currency.getInstance("USD"))).isEqualTo("$12.50")
    }

    @Test
    fun formatsEurInGermanLocale() {
        val de = PriceFormatter(Locale.GERMANY)
        assertThat(de.format(BigDecimal("1234.5"), Currency.getInstance("EUR"))).isEqualTo("1.234,50 €")
    }
}
