package com.ledgerly.money

import kotlinx.serialization.Serializable

@Serializable
data class Money(val minor: Long, val currency: String) {
    operator fun plus(other: Money): Money {
        require(currency == other.currency) { "Currency mismatch: $currency vs ${other.currency}" }
        return Money(minor + other.minor, currency)
    }

    fun split(parts: Int): List<Money> {
        val base = minor / parts
        return List(parts) { Money(base, currency) }
    }
}
