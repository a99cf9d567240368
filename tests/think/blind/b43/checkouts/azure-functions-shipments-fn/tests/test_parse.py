from shipments.parse import parse_shipment


def test_parses_payload():
    s = parse_shipment({"id": "s-1", "order_id": "o-9", "carrier": "dhl"})
    assert s.order_id == "o-9"
