import std/[unittest, times]
import durfmt

suite "humanize":
  test "zero":
    check humanize(initDuration()) == "0s"
  test "mixed":
    check humanize(initDuration(hours = 1, minutes = 5)) == "1h 5m"
