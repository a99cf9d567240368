#include <ArduinoJson.h>
#include <LittleFS.h>
#include "config.h"

bool config_load(Config &cfg) {
    File f = LittleFS.open("/config.json", "r");
    if (!f) return false;
    JsonDocument doc;
    if (deserializeJson(doc, f)) return false;
    cfg.mqtt_host = doc["mqtt_host"] | "mqtt.local";
    cfg.sleep_s = doc["sleep_s"] | 900;
    return true;
}
