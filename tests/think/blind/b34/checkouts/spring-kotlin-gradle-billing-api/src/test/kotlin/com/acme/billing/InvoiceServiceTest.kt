package com.acme.billing

import io.mockk.every
import io.mockk.mockk
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows
import java.time.Clock
import java.time.Instant
import java.time.ZoneOffset
import kotlin.test.assertEquals

class InvoiceServiceTest {
    private val invoices = mockk<InvoiceRepository>()
    private val clock = Clock.fixed(Instant.parse("2025-03-14T10:00:00Z"), ZoneOffset.UTC)
    private val service = InvoiceService(invoices, clock)

    @Test
    fun `numbers invoices per year`() {
        every { invoices.count() } returns 41L
        every { invoices.save(any()) } answers { firstArg() }

        val invoice = service.issue(customerId = 3L, lines = listOf(InvoiceLine("Support", 1, 9900)))

        assertEquals("INV-2025-42", invoice.number)
    }

    @Test
    fun `rejects empty invoices`() {
        assertThrows<IllegalArgumentException> { service.issue(3L, emptyList()) }
    }
}
