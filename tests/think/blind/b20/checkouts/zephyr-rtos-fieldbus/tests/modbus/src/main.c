/* SPDX-License-Identifier: Apache-2.0 */
#include <zephyr/ztest.h>
#include <fieldbus/modbus_util.h>

ZTEST(modbus_rtu, test_crc16_known_frame)
{
	/* read holding registers, slave 1, addr 0, count 10 */
	const uint8_t frame[] = {0x01, 0x03, 0x00, 0x00, 0x00, 0x0A};

	zassert_equal(modbus_crc16(frame, sizeof(frame)), 0xCDC5);
}

ZTEST(modbus_rtu, test_crc16_empty)
{
	zassert_equal(modbus_crc16(NULL, 0), 0xFFFF);
}

ZTEST_SUITE(modbus_rtu, NULL, NULL, NULL, NULL, NULL);
