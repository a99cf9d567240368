package io.billing.auth

import io.billing.module
import io.ktor.client.request.*
import io.ktor.http.*
import io.ktor.server.testing.*
import kotlin.test.*

class AuthRoutesTest {
    @Test
    fun `login with bad password returns 401`() = testApplication {
        application { module() }
        val res = client.post("/auth/login") {
            contentType(ContentType.Application.Json)
            setBody("""{"email":"a@b.io","password":"nope"}""")
        }
        assertEquals(HttpStatusCode.Unauthorized, res.status)
    }
}
