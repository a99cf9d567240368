package com.shelfio.inventory.db

import kotlin.test.*

class StockRepositoryTest {
    private val repo = StockRepository(DatabaseFactory.init("jdbc:h2:mem:stock;MODE=PostgreSQL;DB_CLOSE_DELAY=-1"))

    @Test
    fun `reserve decrements available quantity`() {
        val sku = repo.insert("SKU-1", available = 10)
        repo.reserve(sku, 3)
        assertEquals(7, repo.find(sku)!!.available)
    }

    @Test
    fun `release restores quantity`() {
        val sku = repo.insert("SKU-2", available = 5)
        repo.reserve(sku, 2)
        repo.release(sku, 2)
        assertEquals(5, repo.find(sku)!!.available)
    }
}
