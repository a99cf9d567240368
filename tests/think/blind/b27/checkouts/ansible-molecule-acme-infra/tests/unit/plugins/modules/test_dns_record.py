from __future__ import annotations

import json
from unittest.mock import patch

import pytest
from ansible.module_utils import basic
from ansible.module_utils.common.text.converters import to_bytes

from ansible_collections.acme.infra.plugins.modules import dns_record


def set_module_args(args):
    basic._ANSIBLE_ARGS = to_bytes(json.dumps({"ANSIBLE_MODULE_ARGS": args}))


class ExitJson(Exception):
    pass


def exit_json(*args, **kwargs):
    raise ExitJson(kwargs)


@pytest.fixture(autouse=True)
def patch_exit(monkeypatch):
    monkeypatch.setattr(basic.AnsibleModule, "exit_json", exit_json)


BASE = {"zone": "acme.example", "name": "www", "value": "10.0.0.5", "api_url": "https://dns", "api_token": "t"}


@patch("ansible_collections.acme.infra.plugins.modules.dns_record.DnsApiClient")
def test_creates_missing_record(client):
    client.return_value.get_record.return_value = None
    set_module_args(BASE)
    with pytest.raises(ExitJson) as e:
        dns_record.main()
    assert e.value.args[0]["changed"] is True
    client.return_value.upsert_record.assert_called_once()


@patch("ansible_collections.acme.infra.plugins.modules.dns_record.DnsApiClient")
def test_no_change_when_value_matches(client):
    client.return_value.get_record.return_value = {"id": "r1", "value": "10.0.0.5"}
    set_module_args(BASE)
    with pytest.raises(ExitJson) as e:
        dns_record.main()
    assert e.value.args[0]["changed"] is False
