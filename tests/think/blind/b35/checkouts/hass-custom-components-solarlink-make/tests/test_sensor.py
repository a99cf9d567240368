"""Sensor tests for Solarlink."""
from homeassistant.core import HomeAssistant


async def test_pv_power(hass: HomeAssistant, init_integration) -> None:
    state = hass.states.get("sensor.solarlink_sl_5k_pv_power")
    assert state.state == "3120"
