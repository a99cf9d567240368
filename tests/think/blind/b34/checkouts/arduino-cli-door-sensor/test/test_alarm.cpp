#include "unity.h"
#include "Alarm.h"

void setUp() {}
void tearDown() {}

void test_no_alarm_before_timeout() {
  Alarm a(10000);
  a.update(true, 0);
  TEST_ASSERT_FALSE(a.update(true, 9999));
}

void test_alarm_after_timeout() {
  Alarm a(10000);
  a.update(true, 0);
  TEST_ASSERT_TRUE(a.update(true, 10000));
}

int main() {
  UNITY_BEGIN();
  RUN_TEST(test_no_alarm_before_timeout);
  RUN_TEST(test_alarm_after_timeout);
  return UNITY_END();
}
