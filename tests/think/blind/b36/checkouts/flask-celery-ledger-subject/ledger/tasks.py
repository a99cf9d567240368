from celery import shared_task

from ledger.extensions import db, mail
from ledger.models import Invoice


@shared_task(name="ledger.tasks.send_invoice")
def send_invoice(invoice_id):
    invoice = db.session.get(Invoice, invoice_id)
    mail.send(invoice.to_message())
    invoice.status = "sent"
    db.session.commit()
