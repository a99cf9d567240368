package com.acme.net

import org.junit.Assert.assertEquals
import org.junit.Test

class ApiErrorMapperTest {
    @Test
    fun maps503ToServiceUnavailable() {
        assertEquals(ApiError.ServiceUnavailable, ApiErrorMapper.map(503, ""))
    }

    @Test
    fun maps401ToUnauthorized() {
        assertEquals(ApiError.Unauthorized, ApiErrorMapper.map(401, "{\"error\":\"token_expired\"}"))
    }
}
