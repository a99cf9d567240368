package com.tidepool.sync

import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.flow.MutableStateFlow
import kotlinx.coroutines.flow.StateFlow
import kotlinx.coroutines.launch

class SyncEngine(
    private val api: StationApi,
    private val cache: StationCache,
    private val scope: CoroutineScope,
) {
    private val _state = MutableStateFlow<SyncState>(SyncState.Idle)
    val state: StateFlow<SyncState> = _state

    fun refresh(stationId: String) {
        scope.launch {
            _state.value = SyncState.Loading
            val predictions = api.fetchPredictions(stationId)
            cache.putPredictions(stationId, predictions)
            _state.value = SyncState.Done(predictions.size)
        }
    }
}
