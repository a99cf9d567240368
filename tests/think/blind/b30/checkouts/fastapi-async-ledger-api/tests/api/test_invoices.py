from app.models.invoice import Invoice


async def test_list_invoices_empty(client):
    resp = await client.get("/api/v1/invoices")
    assert resp.status_code == 200
    assert resp.json() == {"items": [], "total": 0}


async def test_list_invoices_returns_created(client, db_session):
    db_session.add(Invoice(number="INV-0001", customer_id=1, total_cents=1200, status="open"))
    await db_session.flush()
    resp = await client.get("/api/v1/invoices")
    assert resp.status_code == 200
    assert [i["number"] for i in resp.json()["items"]] == ["INV-0001"]


async def test_get_invoice_404(client):
    resp = await client.get("/api/v1/invoices/999999")
    assert resp.status_code == 404
