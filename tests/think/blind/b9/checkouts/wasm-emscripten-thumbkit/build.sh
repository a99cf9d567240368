#!/usr/bin/env bash
set -euo pipefail
mkdir -p build
emcc src/main.c src/decode.c src/resize.c \
  -Iinclude -O2 -sUSE_LIBPNG=1 \
  -sMODULARIZE=1 -sEXPORT_NAME=createThumbkit \
  -sEXPORTED_FUNCTIONS=_thumb_make,_malloc,_free \
  -sEXPORTED_RUNTIME_METHODS=ccall,cwrap \
  -o build/thumbkit.js
