proc crc16*(data: openArray[byte]): uint16 =
  result = 0xFFFF
  for b in data:
    result = result xor b.uint16
    for _ in 0 ..< 8:
      if (result and 1) != 0:
        result = (result shr 1) xor 0xA001
      else:
        result = result shr 1
