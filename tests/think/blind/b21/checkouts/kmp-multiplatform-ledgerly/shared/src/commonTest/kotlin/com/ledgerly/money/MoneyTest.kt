package com.ledgerly.money

import kotlin.test.Test
import kotlin.test.assertEquals
import kotlin.test.assertFailsWith

class MoneyTest {
    @Test
    fun addsSameCurrency() {
        assertEquals(Money(350, "EUR"), Money(100, "EUR") + Money(250, "EUR"))
    }

    @Test
    fun rejectsMixedCurrencies() {
        assertFailsWith<IllegalArgumentException> { Money(1, "EUR") + Money(1, "USD") }
    }

    @Test
    fun splitsEvenly() {
        assertEquals(List(3) { Money(100, "USD") }, Money(300, "USD").split(3))
    }
}
