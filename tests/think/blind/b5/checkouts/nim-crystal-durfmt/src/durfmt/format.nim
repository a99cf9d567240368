import std/[times, strutils]

proc humanize*(d: Duration): string =
  let parts = d.toParts()
  var bits: seq[string]
  if parts[Days] > 0: bits.add $parts[Days] & "d"
  if parts[Hours] > 0: bits.add $parts[Hours] & "h"
  if parts[Minutes] > 0: bits.add $parts[Minutes] & "m"
  if parts[Seconds] > 0 or bits.len == 0: bits.add $parts[Seconds] & "s"
  bits.join(" ")
