#line 2 "MoistureTest.ino"
#include <AUnit.h>
#include "Moisture.h"

// calibration: 520 = bone dry, 260 = in water
static Moisture m(520, 260);

test(percent_midpoint) { assertEqual(m.percent(390), 50); }
test(percent_wet) { assertEqual(m.percent(260), 100); }
test(percent_dry) { assertEqual(m.percent(520), 0); }

void setup() {
#if !defined(EPOXY_DUINO)
  delay(1000);
#endif
  Serial.begin(115200);
  while (!Serial);
}

void loop() { aunit::TestRunner::run(); }
