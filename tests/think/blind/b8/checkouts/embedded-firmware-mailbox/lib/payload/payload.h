#pragma once
#include <stddef.h>
#include <stdint.h>

size_t payload_build(char *out, size_t cap, uint16_t battery_mv, bool flap_open, uint32_t seq);
