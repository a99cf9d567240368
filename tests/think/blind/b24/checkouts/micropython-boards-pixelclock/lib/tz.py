# Minimal timezone helpers for the pixel clock (no zoneinfo on MicroPython).
import time

UTC_OFFSET_H = 1  # CET


def local_time(utc_secs):
    return time.gmtime(utc_secs + UTC_OFFSET_H * 3600)
