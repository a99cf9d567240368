import pytest

pytest.importorskip("sphinx")


@pytest.mark.sphinx("html", testroot="glossary")
def test_first_mention_is_linked(app):
    app.build()
    html = (app.outdir / "index.html").read_text()
    assert html.count('href="glossary.html#term-ephemeris"') == 1


@pytest.mark.sphinx("html", testroot="glossary")
def test_terms_inside_literals_are_left_alone(app):
    app.build()
    html = (app.outdir / "index.html").read_text()
    assert "<code class=\"docutils literal notranslate\"><span class=\"pre\">ephemeris</span>" in html
