# Package

version       = "0.3.0"
author        = "Kofi Mensah"
description   = "Human-friendly duration formatting and parsing"
license       = "MIT"
srcDir        = "src"

# Dependencies

requires "nim >= 1.6.0"
