import pytest
from httpx import ASGITransport, AsyncClient

from app.main import app


@pytest.fixture
async def client():
    async with AsyncClient(transport=ASGITransport(app=app), base_url="http://test") as ac:
        yield ac


async def test_send_message_accepted(client):
    resp = await client.post("/messages", json={"channel": "email", "to": "a@example.com", "body": "hi"})
    assert resp.status_code == 202
    assert resp.json()["status"] == "queued"


async def test_send_message_unknown_channel(client):
    resp = await client.post("/messages", json={"channel": "fax", "to": "123", "body": "hi"})
    assert resp.status_code == 422
