import std/unittest
import modbusnim/[rtu, crc]

suite "rtu":
  test "crc of read holding registers":
    check crc16([0x01'u8, 0x03, 0x00, 0x00, 0x00, 0x0A]) == 0xCDC5'u16
  test "loopback read":
    let c = openRtu("/dev/ttyUSB0", 9600)
    check c.readHolding(1, 0, 2).len == 2
