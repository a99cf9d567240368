#pragma once
#include <stdint.h>

enum class ButtonEvent : uint8_t { None, Click, LongPress };

class ButtonFilter {
 public:
  explicit ButtonFilter(uint8_t pin) : pin_(pin) {}
  void begin();
  ButtonEvent update(bool rawLevel, uint32_t nowMs);

 private:
  static constexpr uint32_t kDebounceMs = 30;
  static constexpr uint32_t kLongPressMs = 800;
  uint8_t pin_;
  bool stable_ = true;
  bool lastRaw_ = true;
  uint32_t changedAt_ = 0;
  uint32_t pressedAt_ = 0;
  bool longFired_ = false;
};
