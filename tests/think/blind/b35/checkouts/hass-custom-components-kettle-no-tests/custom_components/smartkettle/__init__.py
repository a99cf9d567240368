"""The SmartKettle BLE integration."""
from homeassistant.const import Platform

PLATFORMS = [Platform.SENSOR, Platform.SWITCH]
