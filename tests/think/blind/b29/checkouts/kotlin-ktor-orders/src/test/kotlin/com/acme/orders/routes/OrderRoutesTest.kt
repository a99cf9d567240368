package com.acme.orders.routes

import com.acme.orders.module
import io.ktor.client.request.*
import io.ktor.client.statement.*
import io.ktor.http.*
import io.ktor.server.testing.*
import kotlin.test.*

class OrderRoutesTest {
    @Test
    fun `GET orders returns empty list`() = testApplication {
        application { module() }
        val res = client.get("/orders")
        assertEquals(HttpStatusCode.OK, res.status)
        assertEquals("[]", res.bodyAsText())
    }

    @Test
    fun `POST orders with valid body returns 201`() = testApplication {
        application { module() }
        val res = client.post("/orders") {
            contentType(ContentType.Application.Json)
            setBody("""{"sku":"A-100","quantity":2,"customerId":"c-9"}""")
        }
        assertEquals(HttpStatusCode.Created, res.status, res.bodyAsText())
    }
}
