package com.tidepool.sync

import kotlinx.coroutines.test.StandardTestDispatcher
import kotlinx.coroutines.test.TestScope
import kotlinx.coroutines.test.advanceUntilIdle
import kotlinx.coroutines.test.runTest
import kotlin.test.Test
import kotlin.test.assertEquals

class SyncEngineTest {
    private val dispatcher = StandardTestDispatcher()
    private val scope = TestScope(dispatcher)

    @Test
    fun refreshStoresPredictionsAndReportsCount() = scope.runTest {
        val api = FakeStationApi(predictions = List(4) { fakePrediction(it) })
        val cache = InMemoryStationCache()
        val engine = SyncEngine(api, cache, this)

        engine.refresh("9414290")
        advanceUntilIdle()

        assertEquals(SyncState.Done(4), engine.state.value)
        assertEquals(4, cache.predictions("9414290").size)
    }
}
