#include "unity.h"
#include "ina226.h"

extern uint16_t ina226_calc_cal(uint32_t shunt_uohm, float current_lsb_a);

TEST_CASE("calibration register for 2 mOhm shunt", "[ina226]")
{
    TEST_ASSERT_EQUAL_UINT16(2560, ina226_calc_cal(2000, 0.001f));
}
