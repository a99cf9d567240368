/* SPDX-License-Identifier: Apache-2.0 */
#ifndef FIELDBUS_MODBUS_UTIL_H_
#define FIELDBUS_MODBUS_UTIL_H_

#include <stddef.h>
#include <stdint.h>

uint16_t modbus_crc16(const uint8_t *buf, size_t len);

#endif
