import pytest

from plugins.filter.netaddr_extra import cidr_first_host, cidr_prefixlen


def test_cidr_first_host_basic():
    assert cidr_first_host("10.0.0.0/24") == "10.0.0.1"


def test_cidr_first_host_host_bits_set():
    assert cidr_first_host("10.0.0.77/24") == "10.0.0.1"


@pytest.mark.parametrize("cidr,plen", [("10.0.0.0/8", 8), ("192.0.2.0/24", 24), ("2001:db8::/48", 48)])
def test_cidr_prefixlen(cidr, plen):
    assert cidr_prefixlen(cidr) == plen


def test_cidr_first_host_ipv6():
    assert cidr_first_host("2001:db8:1::/64") == "2001:db8:1::1"


def test_filters_registered():
    from plugins.filter.netaddr_extra import FilterModule

    assert set(FilterModule().filters()) == {"cidr_first_host", "cidr_prefixlen"}


def test_cidr_prefixlen_host_bits_ignored():
    assert cidr_prefixlen("10.1.2.3/16") == 16
