from flask import Blueprint, abort, redirect, render_template, url_for

from acme.extensions import db
from acme.models import Invoice

bp = Blueprint("invoices", __name__, url_prefix="/invoices")


@bp.get("/<int:invoice_id>")
def detail(invoice_id):
    invoice = db.get_or_404(Invoice, invoice_id)
    return render_template("invoices/detail.html", invoice=invoice)
