"""Interleaved golden cases: edits placed in the case's stand-in checkout, and nowhere else on the machine."""

from __future__ import annotations

from pathlib import Path

from sbcore.testing.golden_cases import load_case
from sbcore.testing.golden_interleave import CheckoutAnchors
from sbcore.testing.goldens import GoldenRunner

CWD = "/home/dev/shop"


def test_an_edit_is_placed_in_the_checkout_standing_in_for_the_sessions_cwd(tmp_path: Path) -> None:
    checkout = tmp_path / "checkout"
    (checkout / "src").mkdir(parents=True)
    (checkout / "src" / "a.py").write_text("one\ntwo\nthree\n")
    anchors = CheckoutAnchors(checkout)
    assert anchors.resolve(f"{CWD}/src/a.py", CWD, "two\nthree\n", "") == (2, 3)
    assert anchors.resolve(f"{CWD}/../elsewhere/a.py", CWD, "two", "") is None
    assert anchors.resolve("src/a.py", CWD, "two", "") is None  # only the transcripts' absolute paths
    assert CheckoutAnchors(None).resolve(f"{CWD}/src/a.py", CWD, "two", "") is None


def test_a_symbolic_link_out_of_the_checkout_is_not_followed(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("token\n")
    checkout = tmp_path / "checkout"
    checkout.mkdir()
    (checkout / "leak.txt").symlink_to(secret)
    assert CheckoutAnchors(checkout).resolve(f"{CWD}/leak.txt", CWD, "token", "") is None


def test_a_missing_interleaved_transcript_fails_the_case_naming_it(tmp_path: Path) -> None:
    case = tmp_path / "goldens" / "builtin" / "cross-task-collision" / "gone.yaml"
    case.parent.mkdir(parents=True)
    case.write_text(
        "description: Two sessions.\nlabel: must_fire\ninterleave: {transcripts: [a.jsonl, b.jsonl]}\n"
    )
    result = GoldenRunner().run(load_case(case))
    assert (result.outcome, result.reason) == ("failed", f"no transcript at {case.parent / 'a.jsonl'}")
