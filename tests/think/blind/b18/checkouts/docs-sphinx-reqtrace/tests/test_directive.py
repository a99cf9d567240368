import pytest


@pytest.mark.sphinx("html", testroot="basic")
def test_requirement_anchor(app):
    app.build()
    html = (app.outdir / "index.html").read_text()
    assert 'id="req-001"' in html
