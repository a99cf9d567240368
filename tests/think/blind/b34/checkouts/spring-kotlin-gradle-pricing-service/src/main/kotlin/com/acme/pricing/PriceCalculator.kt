package com.acme.pricing

import org.springframework.stereotype.Component
import java.math.BigDecimal
import java.math.RoundingMode

@Component
class PriceCalculator(private val taxRates: TaxRates) {

    fun quote(cart: Cart): Quote {
        val net = cart.lines.fold(BigDecimal.ZERO) { acc, l -> acc + l.unitPrice * l.quantity.toBigDecimal() }
        val tax = (net * taxRates.rateFor(cart.country)).setScale(2, RoundingMode.HALF_UP)
        return Quote(net = net, tax = tax, gross = net + tax)
    }
}
