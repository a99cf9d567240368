package com.kairo.time

import kotlinx.datetime.Clock
import kotlinx.datetime.Instant

fun interface TimeSource {
    fun now(): Instant

    companion object {
        val System = TimeSource { Clock.System.now() }
    }
}
