# -*- coding: utf-8 -*-
from __future__ import annotations

import json

from ansible.module_utils.urls import open_url


class DnsApiClient:
    def __init__(self, base_url, token, validate_certs=True):
        self.base_url = base_url.rstrip("/")
        self.token = token
        self.validate_certs = validate_certs

    def _req(self, method, path, payload=None):
        data = json.dumps(payload) if payload is not None else None
        resp = open_url(
            self.base_url + path,
            method=method,
            data=data,
            headers={"Authorization": "Bearer " + self.token, "Content-Type": "application/json"},
            validate_certs=self.validate_certs,
        )
        body = resp.read()
        return json.loads(body) if body else None

    def get_record(self, zone, name, rtype):
        recs = self._req("GET", "/zones/%s/records?name=%s&type=%s" % (zone, name, rtype)) or []
        return recs[0] if recs else None

    def upsert_record(self, zone, record):
        return self._req("PUT", "/zones/%s/records" % zone, record)

    def delete_record(self, zone, record_id):
        return self._req("DELETE", "/zones/%s/records/%s" % (zone, record_id))
