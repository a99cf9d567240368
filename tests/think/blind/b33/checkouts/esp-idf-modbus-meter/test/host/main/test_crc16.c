#include "unity.h"
#include "crc16.h"

void test_crc16_known_vector(void)
{
    const uint8_t req[] = {0x01, 0x03, 0x00, 0x00, 0x00, 0x0A};
    TEST_ASSERT_EQUAL_HEX16(0xCDC5, crc16_modbus(req, sizeof(req)));
}
