"""What a repository's labels file may read: its own files, and the corpus by name; nothing else.

A labels file is the repository's (a pull request's, scored in CI), and what its cases replay goes into the
reports: a transcript or a checkout outside the repository would put another project's session in them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from sbcore.conductor.labels import LabelError, load_labels

SESSION = '{"type":"user","uuid":"u1","timestamp":"2026-01-01T10:00:00Z","message":{"content":"hello"}}\n'


def _repository(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "cases").mkdir()
    (repo / "cases" / "mine.jsonl").write_text(SESSION)
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "theirs.jsonl").write_text(SESSION)
    return repo


def _labels(repo: Path, case: str, head: str = "") -> Path:
    path = repo / "labels.yaml"
    path.write_text(f"{head}cases:\n  - {{id: c1, detector: repeat-failure, expect: silent, {case}}}\n")
    return path


def test_a_case_reads_the_repositorys_own_files(tmp_path: Path) -> None:
    repo = _repository(tmp_path)
    (repo / "checkout").mkdir()
    (case,) = load_labels(_labels(repo, "transcript: cases/mine.jsonl, checkout: checkout"))
    assert case.transcript == repo / "cases" / "mine.jsonl"


@pytest.mark.parametrize(
    ("case", "key"),
    [
        ("transcript: ../elsewhere/theirs.jsonl", "transcript"),
        ("transcript: TMP/elsewhere/theirs.jsonl", "transcript"),
        ("transcript: cases/mine.jsonl, checkout: ../elsewhere", "checkout"),
    ],
)
def test_a_case_naming_a_file_outside_the_repository_is_refused(tmp_path: Path, case: str, key: str) -> None:
    repo = _repository(tmp_path)
    with pytest.raises(LabelError) as info:
        load_labels(_labels(repo, case.replace("TMP", str(tmp_path))))
    problem = info.value.problem
    assert problem.key == key and "outside the repository this labels file is in" in problem.problem


def test_a_link_in_the_repository_leading_out_of_it_is_refused(tmp_path: Path) -> None:
    repo = _repository(tmp_path)
    (repo / "cases" / "linked.jsonl").symlink_to(tmp_path / "elsewhere" / "theirs.jsonl")
    with pytest.raises(LabelError, match="outside the repository"):
        load_labels(_labels(repo, "transcript: cases/linked.jsonl"))


def test_the_corpus_may_be_kept_beside_the_repository_but_is_read_only_by_name(tmp_path: Path) -> None:
    repo = _repository(tmp_path)
    head = "corpus: ../elsewhere\n"
    (case,) = load_labels(_labels(repo, 'transcript: "corpus:theirs.jsonl"', head))
    assert case.transcript.resolve() == (tmp_path / "elsewhere" / "theirs.jsonl").resolve()
    with pytest.raises(LabelError, match="leads out of the corpus"):
        load_labels(_labels(repo, 'transcript: "corpus:../repo/cases/mine.jsonl"', head))


def test_a_file_in_no_repository_is_the_users_own(tmp_path: Path) -> None:
    (tmp_path / "mine").mkdir()
    (tmp_path / "theirs.jsonl").write_text(SESSION)
    labels = tmp_path / "mine" / "labels.yaml"
    labels.write_text(
        "cases:\n  - {id: c1, detector: repeat-failure, expect: silent, transcript: ../theirs.jsonl}\n"
    )
    (case,) = load_labels(labels)
    assert case.transcript.name == "theirs.jsonl"


@pytest.mark.parametrize(
    ("case", "key"),
    [
        ("transcript: {path: ../elsewhere/theirs.jsonl}, label: must_stay_silent", "transcript"),
        (
            "interleave: {transcripts: [cases/mine.jsonl, ../elsewhere/theirs.jsonl]}, label: must_fire",
            "interleave",
        ),
        ("observations: [{kind: text, text: hi}], notes: ../elsewhere, label: must_stay_silent", "notes"),
    ],
)
def test_a_case_in_the_golden_vocabulary_reads_only_the_repository_too(
    tmp_path: Path, case: str, key: str
) -> None:
    from sbcore.testing.case_sources import load_sources

    repo = _repository(tmp_path)
    with pytest.raises(LabelError) as info:
        load_sources([_labels(repo, f"{case}, why: reads outside")], None)
    assert info.value.problem.key == key and "outside the repository" in info.value.problem.problem
