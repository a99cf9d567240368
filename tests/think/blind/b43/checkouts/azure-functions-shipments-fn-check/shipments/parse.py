from dataclasses import dataclass


@dataclass
class Shipment:
    id: str
    order_id: str
    carrier: str


def parse_shipment(payload: dict) -> Shipment:
    return Shipment(id=payload["id"], order_id=payload["orderId"], carrier=payload.get("carrier", "unknown"))
