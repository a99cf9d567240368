#pragma once
#include <stdint.h>

class Alarm {
 public:
  explicit Alarm(uint32_t openTimeoutMs) : timeout_(openTimeoutMs) {}
  // returns true while the alarm should sound
  bool update(bool doorOpen, uint32_t nowMs);

 private:
  uint32_t timeout_;
  uint32_t openedAt_ = 0;
  bool wasOpen_ = false;
};
