package com.acme.pricing

import io.mockk.every
import io.mockk.mockk
import org.junit.jupiter.api.Test
import java.math.BigDecimal
import kotlin.test.assertEquals

class PriceCalculatorTest {
    private val taxRates = mockk<TaxRates>()
    private val calculator = PriceCalculator(taxRates)

    @Test
    fun `adds country tax to net total`() {
        every { taxRates.rateFor("DE") } returns BigDecimal("0.19")
        val cart = Cart(country = "DE", lines = listOf(CartLine("sku-1", BigDecimal("10.00"), 3)))

        val quote = calculator.quote(cart)

        assertEquals(BigDecimal("30.00"), quote.net)
        assertEquals(BigDecimal("5.70"), quote.tax)
        assertEquals(BigDecimal("35.70"), quote.gross)
    }
}
