#pragma once
#include <stdint.h>

class Moisture {
 public:
  Moisture(int16_t dryRaw, int16_t wetRaw) : dry_(dryRaw), wet_(wetRaw) {}
  int16_t percent(int16_t raw) const;

 private:
  int16_t dry_;
  int16_t wet_;
};
