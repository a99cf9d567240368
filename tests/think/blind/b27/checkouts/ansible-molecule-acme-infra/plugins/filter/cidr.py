# -*- coding: utf-8 -*-
from __future__ import annotations

import ipaddress


def cidr_hosts(cidr):
    return [str(h) for h in ipaddress.ip_network(cidr, strict=False).hosts()]


class FilterModule(object):
    def filters(self):
        return {"cidr_hosts": cidr_hosts}
