from __future__ import annotations

import ipaddress


def cidr_first_host(cidr: str) -> str:
    net = ipaddress.ip_network(cidr, strict=False)
    return str(next(net.hosts()))


def cidr_prefixlen(cidr: str) -> int:
    return ipaddress.ip_network(cidr, strict=False).prefixlen


class FilterModule(object):
    def filters(self):
        return {
            "cidr_first_host": cidr_first_host,
            "cidr_prefixlen": cidr_prefixlen,
        }
