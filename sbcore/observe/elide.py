"""Structure-first elision with visible markers, redaction before every cap.

A projected string is built in three steps, always in this order:

1. **Redact** what may be kept: a slice to the end of the line holding the cap (or to the cap
   plus ``MAX_SECRET_SPAN``, see :func:`_slice_end`), grown until the redacted slice really
   reaches the cap, in at most a few readings (a value of ever-shrinking secrets shows less
   rather than being read again and again), and nothing from beyond that safe prefix is ever
   kept. A string elided structure-first (a shell command) is redacted whole when it is at most
   ``WHOLE_REDACT_MAX`` characters. A secret straddling a cap therefore cannot leave a prefix
   behind, and a megabyte body is never scanned whole.
2. **Elide structure**: a shell heredoc body or a long quoted literal is replaced by its
   first ``heredoc_head`` characters and a marker, so the command still reads as the
   command it is (a hard cut mid-heredoc reads as garbage).
3. **Cap** what is left: characters of the original text count, markers do not.

Every removed span leaves a marker, ``…[<kind> +N lines, M chars, sha abcd; paths: …]``:
what was cut, how big it was, a short SHA-256 of the removed text (so the same payload is
recognisable twice), and every locator the span held (see ``locators``).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from typing import NamedTuple

from sbcore.observe import locators
from sbcore.observe import redact as _redact
from sbcore.observe.entropy import looks_random
from sbcore.observe.secret_contexts import PARTNER_REACH, key_id_between

redact: Callable[[str], str] = _redact.redact
# The longest prefix of a secret the redactor needs to recognise it: the margin redacted past a cap on a
# line that runs on.
MAX_SECRET_SPAN: int = int(getattr(_redact, "MAX_SECRET_SPAN", 1024))
# A string elided structure-first is redacted whole up to this size (its structure may keep
# text from anywhere in it); a longer one is redacted over the part that may be kept plus
# ``MAX_SECRET_SPAN``, and one that is only capped to the end of the line holding the cap.
WHOLE_REDACT_MAX = 16 * 1024

# How much kept text on either side of a cut is searched for the rest of a split token.
_EDGE_WINDOW = 512

Segment = tuple[str | None, str]
"""``(None, kept text)`` or ``(kind, removed text)``; together they spell the working text."""
Structure = Callable[[str], list[Segment]]


class Elided(NamedTuple):
    """A projected string: its rendering and the locators its markers carry.

    A named tuple rather than a frozen dataclass: one is built for every projected string, and a tuple is
    built in half the time."""

    text: str
    harvested: tuple[str, ...] = ()
    kept: str | None = None  # the kept words, markers left out (``None``: same as ``text``)

    @property
    def kept_text(self) -> str:
        """What was kept of the original, without markers and without the words a cut split.

        This is what the kept locators are harvested from; a split word is harvested whole
        by the marker next to it.
        """
        return self.text if self.kept is None else self.kept


def prepare(value: str, keep: int, whole_max: int = 0) -> tuple[str, int]:
    """Redact ``value`` for a projection keeping at most ``keep`` characters.

    Returns ``(work, safe)``: ``work[:safe]`` is redacted and may be kept; anything from ``safe``
    on must be elided, and is no redacted text to rely on: the long value's remainder, never read,
    and before it, where a slice ran on past ``MAX_SECRET_SPAN``, the slice's end, where a secret
    it cut short may be raw.
    A value elided structure-first, up to ``whole_max`` characters (or ``keep + MAX_SECRET_SPAN``), is
    redacted whole: its structure may keep text from anywhere in it. Any other value longer than
    ``keep`` is redacted over slices (:func:`_slice_end`), grown while markers leave them short.
    """
    if len(value) <= (max(whole_max, keep + MAX_SECRET_SPAN) if whole_max else keep):
        done = redact(value)
        return done, len(done)
    end = keep
    for _ in range(_PREPARE_READINGS):
        stop, unsafe = _slice_end(value, end, by_line=not whole_max)
        done = redact(value[:stop])
        if stop >= len(value):
            return done, len(done)
        if len(done) - unsafe >= keep:
            break
        end = stop + keep - (len(done) - unsafe)
    # A value whose secrets keep shrinking the slice (one long token after another) shows less than
    # ``keep`` after the last reading rather than being read again from its start (each reading is of the
    # whole slice: unbounded, a megabyte of them took a minute).
    return done + value[stop:], max(0, len(done) - unsafe)


def _slice_end(value: str, at: int, by_line: bool) -> tuple[int, int]:
    """Where a slice that must hold everything before ``at`` redacted may end, and how many characters at
    the end of its redacted form are not safe to keep.

    A slice ending ``MAX_SECRET_SPAN`` past ``at`` is always enough, its last ``MAX_SECRET_SPAN``
    characters unsafe (a secret it cuts short is still raw, and sits entirely after them). A slice ending
    with the line that holds ``at`` is enough too (``by_line``), and wholly safe: no rule's match reads past
    the line its secret is on (a PEM block or a PuTTY key's lines, whose value spans lines, is redacted to
    the end of the slice), but for a key id's partner, which the id may follow by up to ``PARTNER_REACH``
    characters, on a later line. So unless such an id may be that near, the slice stops at the line's
    end: an edit's text capped at a few hundred characters is read that far, not a thousand more. What the
    slice leaves unread is judged token by token where a marker lists its paths (:func:`_not_secrets`).
    """
    if by_line:
        ahead = at + PARTNER_REACH if key_id_between(value, at, at + PARTNER_REACH) else at
        newline = value.find("\n", ahead, at + MAX_SECRET_SPAN)
        if newline >= 0:
            return newline + 1, 0
    return at + MAX_SECRET_SPAN, MAX_SECRET_SPAN


_PREPARE_READINGS = 4
"""How many times :func:`prepare` reads a growing slice for enough redacted text to keep."""


def human(count: int) -> str:
    """``812``, ``1.8k``, ``42k``, ``1.2M``: sizes as a reader estimates them."""
    if count < 1000:
        return str(count)
    if count < 10_000:
        return f"{count / 1000:.1f}k"
    if count < 1_000_000:
        return f"{count // 1000}k"
    return f"{count / 1_000_000:.1f}M"


def short_sha(text: str) -> str:
    """The first four hex digits of the SHA-256 of ``text`` (UTF-8)."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:4]


def marker_size(kind: str, removed: str) -> str:
    """The start of a marker: ``…[kind +N lines, M chars`` (no lines part when there are none)."""
    lines = removed.count("\n")
    if lines:
        return f"…[{kind} +{lines} lines, {human(len(removed))} chars"
    return f"…[{kind} +{human(len(removed))} chars"


def marker(
    kind: str,
    removed: str,
    visible: str,
    harvest_max: int,
    before: str = "",
    after: str = "",
    scanned: int = 0,
) -> tuple[str, list[str]]:
    """The marker for one removed span, and the locators it lists.

    ``before``/``after`` are the kept text on either side: the word a cut splits in two is
    harvested whole. Locators already readable in ``visible`` (all the kept text) are
    not repeated. Only the first ``scanned`` characters of ``removed`` are known to be redacted;
    the rest may never have been (the part of a long value past what its cap's slice reads, an
    edit's unchanged lines), so a token found there is listed only once it is known to be no
    secret (:func:`_not_secrets`). The list is redacted too.
    """
    size = marker_size(kind, removed)
    head = before[-_EDGE_WINDOW:].rsplit(None, 1)[-1] if before and not before[-1].isspace() else ""
    tail = after[:_EDGE_WINDOW].split(None, 1)[0] if after and not after[0].isspace() else ""
    span = head + removed + tail
    located = locators.harvest_located(span)
    found = [token for token in located if token not in visible]
    if found and scanned < len(removed):
        found = _not_secrets(span, found, located, len(head) + scanned)
    paths = f"; paths: {redact(locators.compact(found, harvest_max))}" if found else ""
    return f"{size}, sha {short_sha(removed)}{paths}]", found


def _not_secrets(span: str, tokens: list[str], located: dict[str, int], unscanned: int) -> list[str]:
    """The path-shaped ``tokens`` harvested from ``span`` (``located``: where each one's word starts) that are
    no secret where ``span`` was never redacted (from ``unscanned`` on).

    A secret may have a path's shape: base64 holds slashes (an AWS secret key, a PEM block's or a PuTTY
    key's lines), and a value may be written with them. Redacting the list alone cannot tell, since what
    makes a token a secret is around it (``aws_secret_access_key = …``, a ``Private-Lines:`` header). So a
    token first found where nothing was redacted is left out if it reads as key material, or if redaction
    of its line, and the line before it, replaces it; one first found in redacted text is as redaction
    left it. Neighbouring lines are redacted together: a listing's run of paths is read once, in runs.
    """
    raw_from = max(span.rfind(edge, 0, unscanned) for edge in " \n\t")  # where the word read in part starts
    judged: list[tuple[int, int, str]] = []  # the context of each token to judge, and the token
    kept = []
    for token in tokens:
        at = located[token]
        if at <= raw_from:
            kept.append(token)
        elif not _key_material(token):
            start = span.rfind("\n", 0, max(0, span.rfind("\n", 0, at))) + 1
            end = span.find("\n", at)
            judged.append((start, end if end >= 0 else len(span), token))
    index, budget = 0, _VETTED_MAX
    while index < len(judged) and budget > 0:  # in the order of the text: harvest's
        start, end = judged[index][0], judged[index][1]
        last = index
        while last + 1 < len(judged) and judged[last + 1][0] <= end + 1 and end - start < _VETTED_RUN:
            last += 1
            end = max(end, judged[last][1])
        context = redact(span[start:end])
        kept += [token for _, _, token in judged[index : last + 1] if token in context]
        budget -= end - start
        index = last + 1
    listed = set(kept)
    return [token for token in tokens if token in listed]


def _key_material(token: str) -> bool:
    """Whether a path-shaped token reads as key material: a piece between its slashes that is long, of both
    cases and random (a repository's paths are words, versions and hashes of one case)."""
    return any(
        len(piece) >= _KEY_PIECE and not piece.islower() and not piece.isupper() and looks_random(piece)
        for piece in token.split("/")
    )


_KEY_PIECE = 12
_VETTED_RUN = 4096
"""Neighbouring contexts are redacted together until a run reaches this many characters: each token is then
looked for in its run's redacted text, which must stay short for a listing of thousands of paths."""
_VETTED_MAX = 2 * 1024 * 1024
"""How much unredacted text one marker's tokens are judged in: about twice what a megabyte's listing of paths
needs. Tokens past it are left out, not listed unread (a secret may be among them)."""


def cap_segments(segments: list[Segment], budget: int) -> list[Segment]:
    """Keep at most ``budget`` characters of kept text; everything after becomes one tail cut."""
    out: list[Segment] = []
    remaining = budget
    for index, (kind, text) in enumerate(segments):
        if kind is not None or len(text) <= remaining:
            out.append((kind, text))
            if kind is None:
                remaining -= len(text)
            continue
        tail = [text[remaining:]] + [rest for _, rest in segments[index + 1 :]]
        head = text[:remaining]
        if head:
            out.append((None, head))
        else:
            while out and out[-1][0] is not None:  # a structural cut right before the cap joins the tail
                tail.insert(0, out.pop()[1])
        out.append(("tail", "".join(tail)))
        break
    return out


def render(segments: list[Segment], harvest_max: int, unscanned: int = 0) -> Elided:
    """Join kept text and markers; collect the locators the markers carry.

    The segments are redacted text but for the last ``unscanned`` characters of the last one (what a cap's
    slice did not read)."""
    if len(segments) == 1 and segments[0][0] is None:  # nothing was cut (most commands)
        return Elided(segments[0][1], (), segments[0][1])
    visible = "".join(text for kind, text in segments if kind is None)
    parts: list[str] = []
    whole: list[str] = []  # kept text minus the words a cut splits (the marker lists those)
    harvested: list[str] = []
    for index, (kind, text) in enumerate(segments):
        if kind is None:
            parts.append(text)
            cut_before = index > 0 and segments[index - 1][0] is not None
            cut_after = index + 1 < len(segments) and segments[index + 1][0] is not None
            whole.append(_unsplit(text, cut_before, cut_after))
        elif text:
            before = segments[index - 1][1] if index and segments[index - 1][0] is None else ""
            after = (
                segments[index + 1][1] if index + 1 < len(segments) and segments[index + 1][0] is None else ""
            )
            scanned = len(text) - unscanned if index == len(segments) - 1 else len(text)
            rendered, found = marker(kind, text, visible, harvest_max, before, after, scanned)
            parts.append(rendered)
            harvested.extend(found)
    return Elided("".join(parts), tuple(dict.fromkeys(harvested)), "\n".join(whole))


def _unsplit(text: str, cut_before: bool, cut_after: bool) -> str:
    """``text`` without a partial word where a cut touches it."""
    if cut_before and text and not text[0].isspace():
        parts = text.split(None, 1)
        text = parts[1] if len(parts) > 1 else ""
    if cut_after and text and not text[-1].isspace():
        parts = text.rsplit(None, 1)
        text = parts[0] if len(parts) > 1 else ""
    return text


def elide(
    value: str,
    cap: int,
    harvest_max: int,
    structure: Structure | None = None,
) -> Elided:
    """Redact, elide structure, cap: the one way a payload string is shortened."""
    if len(value) <= cap and structure is None:
        return Elided(redact(value))  # nothing to cut (redaction may lengthen it: never re-cut)
    work, safe = prepare(value, cap, WHOLE_REDACT_MAX if structure is not None else 0)
    head = work[:safe]
    segments: list[Segment] = structure(head) if structure is not None else [(None, head)]
    if safe < len(work):
        segments.append(("tail", work[safe:]))
    return render(cap_segments(segments, cap), harvest_max, len(work) - safe)


# --- shell structure ---------------------------------------------------------------------

# Both open with a literal, so ``re`` skips to its occurrences (a pattern opening with a look-behind
# is tried at every position); a double-quoted literal's body is read a run of plain characters at a
# time rather than one alternation per character. What they match is unchanged (a test compares).
_HEREDOC = re.compile(r"<<(?<![<\w]<<)(?P<dash>[-~]?)[ \t]*(?P<q>['\"]?)\\?(?P<tag>[A-Za-z_][\w.-]*)(?P=q)")
_LITERAL = re.compile(r"\"[^\"\\]*(?:\\.[^\"\\]*)*\"|'[^']*'", re.S)


# A shell, or PowerShell, told to run the string that follows (`bash -lc`, `sh -ec`, `pwsh -NoProfile
# -Command`, `nix-shell --run`), ending right where a literal opens; looked for only before a literal long
# enough to elide.
_SCRIPT_FLAG = re.compile(
    r"(?:^|[\s;&|(])(?:\S*/)?(?:(?:ba|z|da|k)?sh(?:[ \t]+-[A-Za-z]+)*?[ \t]+-[a-z]*c[a-z]*"
    r"|(?:pwsh|powershell)(?:[ \t]+-\w+)*?[ \t]+-(?i:c|command)|nix-shell\b[^\n]*?[ \t]--run)[ \t]+$"
)
_SCRIPT_FLAG_REACH = 120


def shell_structure(head_chars: int) -> Structure:
    """Split a shell command into kept text and elided heredoc bodies / long literals."""

    def split(command: str) -> list[Segment]:
        segments: list[Segment] = []
        position = 0
        search_from = 0
        while True:
            match = _HEREDOC.search(command, search_from)
            if match is None:
                break
            body_start = command.find("\n", match.end())
            if body_start < 0:
                break
            body_start += 1
            terminator = re.compile(rf"^[ \t]*{re.escape(match['tag'])}[ \t]*\)?[ \t;|&]*$", re.M)
            end_match = terminator.search(command, body_start)
            body_end = end_match.start() if end_match else len(command)
            search_from = end_match.end() if end_match else len(command)
            body = command[body_start:body_end]
            segments.extend(_literals(command[position:body_start], head_chars))
            if len(body) <= head_chars:  # short: kept verbatim, and not scanned for literals
                segments.append((None, body))
                position = body_end
                continue
            head = body[:head_chars]
            newline = head.rfind("\n")
            if newline > 0:
                head = head[: newline + 1]
            removed = body[len(head) :]
            trailing = "\n" if removed.endswith("\n") and end_match else ""
            if trailing:
                removed = removed[:-1]
            segments.append((None, head))
            segments.append(("heredoc", removed))
            position = body_end - len(trailing)
        segments.extend(_literals(command[position:], head_chars))
        return segments

    return split


def _literals(text: str, head_chars: int) -> list[Segment]:
    """Elide quoted literals longer than ``head_chars`` inside ``text``, but a shell's script: the literal a
    shell is handed to run (``bash -c "cd app && make test"``, ``pwsh -Command '…'``) is the command itself,
    whatever its length (the command's own cap still applies)."""
    segments: list[Segment] = []
    position = 0
    for match in _LITERAL.finditer(text):
        body_len = match.end() - match.start() - 2
        if body_len <= head_chars:
            continue
        if _SCRIPT_FLAG.search(text, max(0, match.start() - _SCRIPT_FLAG_REACH), match.start()) is not None:
            continue
        keep_to = match.start() + 1 + head_chars
        segments.append((None, text[position:keep_to]))
        segments.append(("literal", text[keep_to : match.end() - 1]))
        position = match.end() - 1
    segments.append((None, text[position:]))
    return segments
