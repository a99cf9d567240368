#line 2 "ConfigTest.ino"
#include <AUnit.h>
#include <BME280Lite.h>

using namespace bme280lite;

test(ctrlMeas_forcedMode_x1) {
  assertEqual(makeCtrlMeas(Oversampling::X1, Oversampling::X1, Mode::Forced), (uint8_t)0x25);
}

test(config_standby_filter) {
  assertEqual(makeConfig(Standby::Ms1000, Filter::X4), (uint8_t)0xA8);
}

void setup() { Serial.begin(115200); }
void loop() { aunit::TestRunner::run(); }
