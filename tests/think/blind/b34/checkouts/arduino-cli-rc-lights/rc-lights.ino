#include "src/ButtonFilter.h"
#include "src/LedPattern.h"

ButtonFilter modeButton(4);
LedPattern pattern(9, 10, 11);

void setup() {
  modeButton.begin();
  pattern.begin();
}

void loop() {
  const uint32_t now = millis();
  if (modeButton.update(digitalRead(4), now) == ButtonEvent::Click) {
    pattern.next();
  }
  pattern.tick(now);
}
