package com.acme.player

import org.junit.Assert.assertEquals
import org.junit.Test
import org.junit.runner.RunWith
import org.robolectric.RobolectricTestRunner

@RunWith(RobolectricTestRunner::class)
class PlaybackEngineTest {
    private val fake = FakeDecoder()

    @Test
    fun startsIdle() {
        val engine = PlaybackEngine(fake)
        assertEquals(PlaybackEngine.State.IDLE, engine.state)
    }

    @Test
    fun gainIsForwardedToDecoder() {
        val engine = PlaybackEngine(fake)
        engine.setVolume(0.5f)
        assertEquals(0.5f, fake.lastGain, 1e-6f)
    }
}
