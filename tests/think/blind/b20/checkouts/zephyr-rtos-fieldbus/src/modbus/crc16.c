/* SPDX-License-Identifier: Apache-2.0 */
#include <fieldbus/modbus_util.h>
#include <zephyr/sys/crc.h>

uint16_t modbus_crc16(const uint8_t *buf, size_t len)
{
	return crc16_reflect(0xA001, 0xFFFF, buf, len);
}
