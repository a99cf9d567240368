import std/[times, strutils]

type DurationParseError* = object of ValueError

proc parseUnit*(s: string): TimeUnit =
  case s.toLowerAscii
  of "s", "sec", "secs": Seconds
  of "m", "min", "mins": Minutes
  of "h", "hr", "hrs": Hours
  of "d", "day", "days": Days
  else: raise newException(DurationParseError, "unknown unit: " & s)
