#include <unity.h>
#include "protect.h"

void setUp(void) { protect_init(); }
void tearDown(void) {}

void test_normal_temperature_allows_relay(void)
{
    TEST_ASSERT_EQUAL(PROTECT_OK, protect_check(350, 0));
    TEST_ASSERT_TRUE(protect_relay_allowed());
}

void test_overtemp_latches_off(void)
{
    TEST_ASSERT_EQUAL(PROTECT_OVERTEMP, protect_check(860, 0));
    TEST_ASSERT_FALSE(protect_relay_allowed());
    protect_check(300, 60000);
    TEST_ASSERT_FALSE(protect_relay_allowed());
}

int main(void)
{
    UNITY_BEGIN();
    RUN_TEST(test_normal_temperature_allows_relay);
    RUN_TEST(test_overtemp_latches_off);
    return UNITY_END();
}
