#include <unity.h>
#include <string.h>
#include "payload.h"

void setUp() {}
void tearDown() {}

void test_payload_contains_battery() {
    char buf[128];
    size_t n = payload_build(buf, sizeof buf, 3712, true, 42);
    TEST_ASSERT_GREATER_THAN(0, n);
    TEST_ASSERT_NOT_NULL(strstr(buf, "\"bat\":3712"));
}

void test_payload_truncation_returns_zero() {
    char buf[8];
    TEST_ASSERT_EQUAL(0, payload_build(buf, sizeof buf, 3712, false, 1));
}

int main(int, char **) {
    UNITY_BEGIN();
    RUN_TEST(test_payload_contains_battery);
    RUN_TEST(test_payload_truncation_returns_zero);
    return UNITY_END();
}
