import os

import pytest

from parcelkit.labels import Label

pytestmark = pytest.mark.skipif(
    "PARCELKIT_SANDBOX_KEY" not in os.environ, reason="needs carrier sandbox credentials"
)


def test_render_ups(sample_label: Label):
    assert sample_label.render(carrier_code="ups").startswith(b"^XA")
