"""Switches for SmartKettle."""
from homeassistant.components.switch import SwitchEntity

from .const import CMD_POWER_OFF, CMD_POWER_ON
from .entity import KettleEntity


async def async_setup_entry(hass, entry, async_add_entities) -> None:
    coordinator = entry.runtime_data
    async_add_entities([KettlePowerSwitch(coordinator)])


class KettlePowerSwitch(KettleEntity, SwitchEntity):
    _attr_translation_key = "power"

    @property
    def is_on(self) -> bool:
        return self.coordinator.data.heating

    async def async_turn_on(self, **kwargs) -> None:
        await self.coordinator.device.send(CMD_POWER_ON)

    async def async_turn_off(self, **kwargs) -> None:
        await self.coordinator.device.send(CMD_POWER_OFF)
