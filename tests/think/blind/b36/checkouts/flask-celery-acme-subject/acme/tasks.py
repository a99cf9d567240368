from celery import shared_task

from acme.extensions import db, mail
from acme.models import Invoice


@shared_task(name="acme.tasks.send_invoice")
def send_invoice(invoice_id):
    invoice = db.session.get(Invoice, invoice_id)
    mail.send(invoice.to_message())
    invoice.status = "sent"
    db.session.commit()
