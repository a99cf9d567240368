package com.acme.catalog

import org.junit.jupiter.api.Test
import kotlin.test.assertEquals

class SlugServiceTest {
    private val slugs = SlugService()

    @Test
    fun `strips accents and punctuation`() {
        assertEquals("creme-brulee-set-2", slugs.slugify("Crème Brûlée Set #2"))
    }
}
