# frozen_string_literal: true

require "mkmf"

$CFLAGS << " -std=c99 -Wall -Werror=implicit-function-declaration"
create_makefile("fastfnv/fastfnv")
