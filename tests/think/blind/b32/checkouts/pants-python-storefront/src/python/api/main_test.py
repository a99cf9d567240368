from fastapi.testclient import TestClient

from api.main import app


def test_healthz():
    resp = TestClient(app).get("/healthz")
    assert resp.status_code == 200
    assert resp.json()["status"] == "ok"
