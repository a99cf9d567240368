#include <unity.h>
#include "cadence.h"

static cadence_t c;

void setUp(void) { cadence_init(&c); }
void tearDown(void) {}

void test_first_edge_gives_zero(void)
{
    cadence_on_edge(&c, 1000);
    TEST_ASSERT_EQUAL_UINT16(0, cadence_rpm(&c, 1000));
}

void test_one_rev_per_second_is_60rpm(void)
{
    cadence_on_edge(&c, 1000);
    cadence_on_edge(&c, 2000);
    TEST_ASSERT_EQUAL_UINT16(60, cadence_rpm(&c, 2000));
}

void test_stopped_after_3s(void)
{
    cadence_on_edge(&c, 1000);
    cadence_on_edge(&c, 2000);
    TEST_ASSERT_EQUAL_UINT16(0, cadence_rpm(&c, 5200));
}

int main(void)
{
    UNITY_BEGIN();
    RUN_TEST(test_first_edge_gives_zero);
    RUN_TEST(test_one_rev_per_second_is_60rpm);
    RUN_TEST(test_stopped_after_3s);
    return UNITY_END();
}
