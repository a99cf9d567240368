package io.billing.invoices

import io.billing.module
import io.ktor.client.request.*
import io.ktor.http.*
import io.ktor.server.testing.*
import kotlin.test.*

class InvoiceRoutesTest {
    @Test
    fun `invoices require auth`() = testApplication {
        application { module() }
        assertEquals(HttpStatusCode.Unauthorized, client.get("/invoices").status)
    }
}
