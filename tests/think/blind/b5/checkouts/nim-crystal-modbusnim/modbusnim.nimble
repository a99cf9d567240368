# Package

version       = "0.5.1"
author        = "Ilse Vermeulen"
description   = "Modbus RTU/TCP client"
license       = "Apache-2.0"
srcDir        = "src"

# Dependencies

requires "nim >= 2.0.0"
requires "serial >= 1.1.5"

task test, "Run tests (needs the RS-485 loopback adapter on /dev/ttyUSB0)":
  exec "nim c -r tests/test_rtu.nim"
  exec "nim c -r tests/test_tcp.nim"
