from fastapi.testclient import TestClient

from app.main import app

client = TestClient(app)


def test_list_items_returns_list(seeded_db):
    resp = client.get("/items")
    assert resp.status_code == 200
    assert isinstance(resp.json(), list)
