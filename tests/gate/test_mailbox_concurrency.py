"""Exactly once under load: 8 drain processes race for one mailbox while a poster queues 500 advisories.

Each drain loops the way successive hook calls would: claim (never waiting on
the lock), keep what it got, pause a moment, try again. When the poster is done
and the mailbox is gone, every advisory must have been claimed by exactly one
drain — no duplicates, no losses — and the history must hold exactly one claim
record per advisory.
"""

from __future__ import annotations

import json
import multiprocessing
import random
import time
from collections import Counter
from multiprocessing.synchronize import Event
from pathlib import Path

import pytest
from gate_helpers import make_advice

from sbcore.deliver.mailbox import Mailbox
from sbcore.gate.history import History

DRAINS = 8
ADVISORIES = 500


def drain(data: str, out: str, done: Event, seed: int) -> None:
    """One drain process: claim until the poster is done and nothing is left."""
    mailbox = Mailbox("s1", Path(data))
    rng = random.Random(seed)
    claimed: list[str] = []
    busy = attempts = 0
    problems: list[str] = []
    while True:
        finished = done.is_set()  # read first: a post can only precede it
        got = mailbox.claim(time.time())
        attempts += 1
        if mailbox.problem is not None:
            if mailbox.problem.startswith("busy"):
                busy += 1
            else:
                problems.append(mailbox.problem)
        claimed.extend(advice.id for advice in got)
        if finished and not mailbox.path.exists():
            break
        time.sleep(rng.uniform(0, 0.002))
    Path(out).write_text(
        json.dumps({"claimed": claimed, "busy": busy, "attempts": attempts, "problems": problems})
    )


@pytest.mark.slow
def test_every_advisory_is_claimed_exactly_once(tmp_path: Path) -> None:
    data = tmp_path / "data"
    context = multiprocessing.get_context("fork")
    done = context.Event()
    outputs = [tmp_path / f"drain-{n}.json" for n in range(DRAINS)]
    processes = [
        context.Process(target=drain, args=(str(data), str(out), done, n)) for n, out in enumerate(outputs)
    ]
    for process in processes:
        process.start()
    mailbox = Mailbox("s1", data)
    posted = []
    started = time.monotonic()
    try:
        for n in range(ADVISORIES):
            now = time.time()
            advice = make_advice(
                id=f"p{n:03d}",
                dedup_key=f"finding-{n}",
                generated_at=now,
                ttl=3600.0,
                queue_timeout=3600.0,
            )
            assert mailbox.post(advice, now=now, timeout=30.0).outcome == "posted"
            posted.append(advice.id)
    finally:
        done.set()
        for process in processes:
            process.join(timeout=120)
    elapsed = time.monotonic() - started
    assert all(process.exitcode == 0 for process in processes)

    results = [json.loads(out.read_text()) for out in outputs]
    claimed = [advice_id for result in results for advice_id in result["claimed"]]
    duplicates = [advice_id for advice_id, count in Counter(claimed).items() if count > 1]
    lost = set(posted) - set(claimed)
    assert duplicates == []
    assert lost == set()
    assert len(claimed) == ADVISORIES
    assert [problem for result in results for problem in result["problems"]] == []

    records, _ = History.for_task("t1", data).read()
    claim_records = Counter(record["advice_id"] for record in records if record["reason"] == "claimed")
    assert claim_records == Counter(posted)

    busy = sum(result["busy"] for result in results)
    attempts = sum(result["attempts"] for result in results)
    assert busy > 0, "the drains never met the lock held: the contention path went untested"
    per_drain = sorted(len(result["claimed"]) for result in results)
    print(
        f"\n{ADVISORIES} advisories, {DRAINS} drains: {elapsed:.2f} s, {attempts} claims, "
        f"{busy} found the lock busy, claimed per drain {per_drain}"
    )
