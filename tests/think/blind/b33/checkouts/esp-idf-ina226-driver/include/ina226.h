#pragma once
#include "driver/i2c_master.h"
#include "esp_err.h"

typedef struct ina226 *ina226_handle_t;

esp_err_t ina226_new(i2c_master_bus_handle_t bus, uint8_t addr, uint32_t shunt_uohm, ina226_handle_t *out);
esp_err_t ina226_read_current_ma(ina226_handle_t dev, float *ma);
esp_err_t ina226_read_bus_mv(ina226_handle_t dev, uint32_t *mv);
