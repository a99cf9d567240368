package com.kairo.time

import kotlinx.datetime.Instant
import kotlin.test.Test
import kotlin.test.assertEquals

class TimeSourceTest {
    @Test
    fun fixedSourceReturnsGivenInstant() {
        val fixed = Instant.parse("2025-01-01T00:00:00Z")
        assertEquals(fixed, TimeSource { fixed }.now())
    }
}
