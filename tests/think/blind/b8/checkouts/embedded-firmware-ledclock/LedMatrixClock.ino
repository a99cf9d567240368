// 4x 8x8 MAX7219 matrix clock with DS3231 RTC, Nano (old bootloader)
#include <MD_Parola.h>
#include <MD_MAX72xx.h>
#include <SPI.h>
#include <RTClib.h>

#define HARDWARE_TYPE MD_MAX72XX::FC16_HW
#define MAX_DEVICES 4
#define CS_PIN 10

MD_Parola matrix(HARDWARE_TYPE, CS_PIN, MAX_DEVICES);
RTC_DS3231 rtc;

void setup() {
  Serial.begin(9600);
  matrix.begin();
  matrix.setIntensity(2);
  if (!rtc.begin()) {
    Serial.println("RTC not found");
  }
}

void loop() {
  DateTime now = rtc.now();
  String t = String(now.hour()) + ":" + (now.minute() < 10 ? "0" : "") + String(now.minute());
  if (matrix.displayAnimate()) {
    matrix.displayText(t.c_str(), PA_CENTER, 0, 0, PA_PRINT, PA_NO_EFFECT);
  }
}
