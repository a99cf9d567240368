package com.acme.billing

import org.springframework.stereotype.Service
import org.springframework.transaction.annotation.Transactional
import java.time.Clock
import java.time.LocalDate

@Service
class InvoiceService(
    private val invoices: InvoiceRepository,
    private val clock: Clock,
) {
    @Transactional
    fun issue(customerId: Long, lines: List<InvoiceLine>): Invoice {
        require(lines.isNotEmpty()) { "an invoice needs at least one line" }
        val today = LocalDate.now(clock)
        val invoice = Invoice(
            number = "INV-${today.year}-${invoices.count() + 1}",
            customerId = customerId,
            issuedOn = today,
            lines = lines.toMutableList(),
        )
        return invoices.save(invoice)
    }
}
