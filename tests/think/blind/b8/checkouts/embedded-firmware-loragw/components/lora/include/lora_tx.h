#pragma once
#include <stddef.h>
#include <stdint.h>
#include "esp_err.h"

esp_err_t lora_tx_send(const uint8_t *payload, size_t len);
