import std/unittest
import durfmt

suite "parseUnit":
  test "aliases":
    check parseUnit("hrs") == Hours
  test "unknown":
    expect DurationParseError:
      discard parseUnit("fortnight")
