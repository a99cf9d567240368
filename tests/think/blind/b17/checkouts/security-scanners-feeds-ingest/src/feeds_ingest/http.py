import requests

from feeds_ingest.settings import settings


def fetch(url: str) -> bytes:
    resp = requests.get(url, timeout=15, verify=settings.VERIFY_TLS)
    resp.raise_for_status()
    return resp.content
