/*
 * SPDX-License-Identifier: Apache-2.0
 */
#include <zephyr/ztest.h>
#include <zephyr/drivers/sensor.h>

static const struct device *const dev = DEVICE_DT_GET(DT_NODELABEL(sht4x));

ZTEST(sht4x_basic, test_crc_check)
{
	zassert_true(device_is_ready(dev), "sht4x not ready");
}

ZTEST(sht4x_basic, test_sample_fetch)
{
	int rc = sensor_sample_fetch(dev);

	zassert_equal(rc, 0, "sample_fetch returned %d", rc);
}

ZTEST(sht4x_basic, test_channel_get)
{
	struct sensor_value v;

	zassert_ok(sensor_channel_get(dev, SENSOR_CHAN_AMBIENT_TEMP, &v));
}

ZTEST_SUITE(sht4x_basic, NULL, NULL, NULL, NULL, NULL);
