import pytest
from django.urls import reverse

from apps.payments.models import Payment


@pytest.mark.django_db
def test_bad_signature_rejected(client, settings):
    settings.STRIPE_WEBHOOK_SECRET = "whsec_test"
    resp = client.post(reverse("payments:stripe-webhook"), data=b"{}", content_type="application/json",
                       HTTP_STRIPE_SIGNATURE="t=1,v1=bad")
    assert resp.status_code == 400
