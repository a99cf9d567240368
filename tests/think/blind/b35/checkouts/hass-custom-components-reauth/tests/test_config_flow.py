"""Test the Acme Thermo config flow."""
from unittest.mock import patch

from homeassistant import config_entries
from homeassistant.const import CONF_HOST, CONF_PASSWORD
from homeassistant.core import HomeAssistant
from homeassistant.data_entry_flow import FlowResultType

from custom_components.acme_thermo.const import DOMAIN


async def test_form_user(hass: HomeAssistant, mock_setup_entry) -> None:
    result = await hass.config_entries.flow.async_init(
        DOMAIN, context={"source": config_entries.SOURCE_USER}
    )
    assert result["type"] is FlowResultType.FORM
    with patch(
        "custom_components.acme_thermo.config_flow.AcmeClient.async_login"
    ), patch(
        "custom_components.acme_thermo.config_flow.AcmeClient.async_get_info"
    ) as info:
        info.return_value.serial = "AT-0042"
        result2 = await hass.config_entries.flow.async_configure(
            result["flow_id"], {CONF_HOST: "192.168.1.40", CONF_PASSWORD: "secret"}
        )
    assert result2["type"] is FlowResultType.CREATE_ENTRY
    assert result2["title"] == "Acme Thermo AT-0042"
