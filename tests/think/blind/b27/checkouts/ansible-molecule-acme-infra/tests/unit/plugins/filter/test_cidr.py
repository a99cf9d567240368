from __future__ import annotations

from ansible_collections.acme.infra.plugins.filter.cidr import cidr_hosts


def test_cidr_hosts_30():
    assert cidr_hosts("192.0.2.0/30") == ["192.0.2.1", "192.0.2.2"]
