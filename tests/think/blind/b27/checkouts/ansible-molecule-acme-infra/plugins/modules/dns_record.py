#!/usr/bin/python
# -*- coding: utf-8 -*-
from __future__ import annotations

DOCUMENTATION = r"""
module: dns_record
short_description: Manage DNS records in the ACME DNS API
options:
  zone: {type: str, required: true, description: Zone name.}
  name: {type: str, required: true, description: Record name.}
  type: {type: str, default: A, choices: [A, AAAA, CNAME, TXT], description: Record type.}
  value: {type: str, description: Record value.}
  state: {type: str, default: present, choices: [present, absent], description: Desired state.}
  api_url: {type: str, required: true, description: Base URL of the DNS API.}
  api_token: {type: str, required: true, no_log: true, description: API token.}
"""

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.acme.infra.plugins.module_utils.dnsapi import DnsApiClient


def run_module():
    module = AnsibleModule(
        argument_spec=dict(
            zone=dict(type="str", required=True),
            name=dict(type="str", required=True),
            type=dict(type="str", default="A", choices=["A", "AAAA", "CNAME", "TXT"]),
            value=dict(type="str"),
            state=dict(type="str", default="present", choices=["present", "absent"]),
            api_url=dict(type="str", required=True),
            api_token=dict(type="str", required=True, no_log=True),
        ),
        required_if=[("state", "present", ["value"])],
        supports_check_mode=True,
    )
    p = module.params
    client = DnsApiClient(p["api_url"], p["api_token"])
    current = client.get_record(p["zone"], p["name"], p["type"])
    changed = False
    if p["state"] == "present":
        if current is None or current.get("value") != p["value"]:
            changed = True
            if not module.check_mode:
                client.upsert_record(p["zone"], {"name": p["name"], "type": p["type"], "value": p["value"]})
    elif current is not None:
        changed = True
        if not module.check_mode:
            client.delete_record(p["zone"], current["id"])
    module.exit_json(changed=changed)


def main():
    run_module()


if __name__ == "__main__":
    main()
