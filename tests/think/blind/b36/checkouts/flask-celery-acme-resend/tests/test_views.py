def test_invoice_detail(client, invoice_factory):
    inv = invoice_factory()
    resp = client.get(f"/invoices/{inv.id}")
    assert resp.status_code == 200
