from scripts.make_tables import fmt, render

ROWS = {
    "baseline": {"bleu": 31.24, "chrf": 55.01, "comet": 0.8123},
    "ours-small": {"bleu": 32.05, "chrf": 56.3, "comet": 0.8202},
    "ours-large": {"bleu": 33.9, "chrf": 57.77, "comet": 0.8311},
}


def test_fmt_one_decimal():
    assert fmt(31.24) == "31.2"


def test_render_has_all_systems():
    out = render(ROWS)
    for name in ROWS:
        assert name in out
    assert out.startswith(r"\begin{tabular}{lrrr}")
