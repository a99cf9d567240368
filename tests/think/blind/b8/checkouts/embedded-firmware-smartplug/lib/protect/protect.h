#pragma once
#include <stdint.h>
#include <stdbool.h>

typedef enum { PROTECT_OK = 0, PROTECT_OVERTEMP } protect_fault_t;

void protect_init(void);
protect_fault_t protect_check(int16_t temp_c10, uint32_t now_ms);
bool protect_relay_allowed(void);
