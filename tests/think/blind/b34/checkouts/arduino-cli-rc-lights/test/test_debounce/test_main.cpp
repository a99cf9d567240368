#include <unity.h>
#include "ButtonFilter.h"

static ButtonFilter f(4);

void setUp() { f = ButtonFilter(4); }
void tearDown() {}

void test_short_press_emits_click() {
  f.update(false, 0);
  f.update(false, 40);
  TEST_ASSERT_EQUAL(ButtonEvent::Click, f.update(true, 200));
}

void test_long_press_emits_once() {
  int n = 0;
  for (uint32_t t = 0; t < 2000; t += 10) {
    if (f.update(false, t) == ButtonEvent::LongPress) n++;
  }
  TEST_ASSERT_EQUAL(1, n);
}

void test_bounce_is_ignored() {
  f.update(false, 0);
  TEST_ASSERT_EQUAL(ButtonEvent::None, f.update(true, 5));
}

int main() {
  UNITY_BEGIN();
  RUN_TEST(test_short_press_emits_click);
  RUN_TEST(test_long_press_emits_once);
  RUN_TEST(test_bounce_is_ignored);
  return UNITY_END();
}
