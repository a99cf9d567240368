import fakeredis
import pytest

from catalog import cache


@pytest.fixture(autouse=True)
def fake_redis(monkeypatch):
    client = fakeredis.FakeRedis(decode_responses=True)
    monkeypatch.setattr(cache, "_client", client)
    return client


def test_put_then_get_roundtrip():
    cache.put_product({"id": 7, "name": "Kettle", "price_cents": 3499})
    assert cache.get_product(7) == {"id": 7, "name": "Kettle", "price_cents": 3499}


def test_get_missing_returns_none():
    assert cache.get_product(999) is None
