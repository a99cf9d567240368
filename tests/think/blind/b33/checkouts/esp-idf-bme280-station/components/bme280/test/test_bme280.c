#include "unity.h"
#include "bme280.h"

TEST_CASE("compensate temperature from datasheet vector", "[bme280]")
{
    bme280_calib_t cal = { .dig_T1 = 27504, .dig_T2 = 26435, .dig_T3 = -1000 };
    int32_t t_fine = 0;
    TEST_ASSERT_EQUAL_INT32(2508, bme280_compensate_temp(&cal, 519888, &t_fine));
}

TEST_CASE("ctrl_meas register encodes oversampling and mode", "[bme280]")
{
    TEST_ASSERT_EQUAL_HEX8(0x27, bme280_ctrl_meas(BME280_OS_X1, BME280_OS_X1, BME280_MODE_NORMAL));
}
