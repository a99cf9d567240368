package com.acme.player

object Native {
    init {
        System.loadLibrary("acme")
    }

    external fun init(sampleRate: Int, channels: Int): Long
    external fun decode(handle: Long, packet: ByteArray, out: ShortArray): Int
    external fun setGain(handle: Long, gain: Float)
    external fun release(handle: Long)
}
