from acme.models import Invoice
from acme.tasks import send_invoice


def test_send_invoice_marks_sent(app, mocker, invoice_factory):
    inv = invoice_factory(status="draft")
    mocker.patch("acme.tasks.mail.send")
    send_invoice.delay(inv.id)
    assert Invoice.query.get(inv.id).status == "sent"
