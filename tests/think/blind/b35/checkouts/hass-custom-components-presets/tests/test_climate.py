"""Test the Acme Thermo climate platform."""
from homeassistant.components.climate import ATTR_HVAC_MODE, HVACMode
from homeassistant.core import HomeAssistant


async def test_climate_state(hass: HomeAssistant, init_integration) -> None:
    state = hass.states.get("climate.living_room")
    assert state is not None
    assert state.state == HVACMode.HEAT
    assert state.attributes["temperature"] == 21.0
