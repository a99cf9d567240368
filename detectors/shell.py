"""Shell command text, read without running it: tokens, segments and a cosmetic-variant key.

Shared by the structural triggers: repeat-failure's work identity (``identity``) and
standard-questions' recognition of invocations both split a command line into its
top-level steps here, so a word inside a quoted commit message is never a step.
"""

from __future__ import annotations

import re
import shlex
from functools import lru_cache

# --------------------------------------------------------------------------------------------
# Command normalisation (the key of repeat_failure)
# --------------------------------------------------------------------------------------------

# fd duplication and /dev/null sinks change where output goes, not what runs.
_REDIRECTS = re.compile(r"(?<!\S)(?:[12]?>&[12]|[12&]?>>?\s*/dev/null)(?!\S)")
# A shell comment starts at a word boundary and runs to the end of its line.
_COMMENT = re.compile(r"(?m)(?<!\S)#.*$")
_OPERATORS = frozenset({"&&", "||", ";", "|", "|&", "&"})
_OUTPUT_REDIRECTS = frozenset({">", ">>", "&>", "&>>", ">|", ">&"})
_PAGERS = frozenset({"tail", "head", "cat", "less", "more"})
_DIR_CHANGES = frozenset({"cd", "pushd"})
_DURATION = re.compile(r"^\d+(?:\.\d+)?[smhd]?$")
_PUNCTUATION = frozenset("();<>|&")


@lru_cache(maxsize=4096)  # every pass re-reads the same history: each command is normalised once
def normalise_command(command: str) -> str:
    """The key under which cosmetic variants of one command count as the same command.

    Folded together: whitespace and quoting (``'a b'`` and ``"a b"``), shell
    comments, ``2>&1`` and ``/dev/null`` redirections, a subshell wrapping the
    whole command, leading ``cd DIR &&`` / ``sleep N &&`` steps, ``time`` and
    ``timeout N`` prefixes, trailing ``| tail``/``| head``/``| cat``/``| less``
    pipes, and the order of adjacent option flags (only within a run of
    flags, never across a positional argument or past ``--``).

    Deliberately kept apart: numbers and other arguments (``get-info 7839``
    and ``get-info 7835`` are different work), environment assignments and
    ``export``/``source`` steps (they change what runs), ``|| true`` and other
    operators that change the exit status. Unparseable input (an unbalanced
    quote) falls back to whitespace folding.
    """
    text = _COMMENT.sub("", _REDIRECTS.sub(" ", command))
    try:
        tokens = _tokenise(text)
    except ValueError:
        return " ".join(command.split())
    tokens = _unwrap_subshell(tokens)
    segments, operators = _split(tokens)
    _drop_leading_steps(segments, operators)
    _drop_trailing_pagers(segments, operators)
    parts: list[str] = []
    for index, segment in enumerate(segments):
        if index:
            parts.append(operators[index - 1])
        parts.extend(_render(_sort_flag_runs(_drop_wrappers(segment))))
    return " ".join(parts)


@lru_cache(maxsize=8192)
def split_segments(command: str) -> tuple[tuple[tuple[str, ...], ...], tuple[str, ...]]:
    """The top-level steps of ``command`` (words, comments and redirections gone) and the operators
    between them. Raises ValueError on an unbalanced quote.

    Cached, and so immutable: one command is read by several rules of both triggers (its work, its
    paths, its invocations, whether it waits), pass after pass, and tokenising is most of what reading
    it costs."""
    tokens = _joined_substitutions(_tokenise(_COMMENT.sub("", _REDIRECTS.sub(" ", command))))
    segments, operators = _split(_unwrap_subshell(tokens))
    return tuple(tuple(segment) for segment in segments), tuple(operators)


# Programs that pass on or pick from what the run before them printed (or show a file): after a pipe, or
# after `;` when the work's output went to a file, the command's status is theirs, not the work's.
_FILTERS = frozenset(
    {*_PAGERS, "grep", "rg", "egrep", "tee", "sed", "awk", "cut", "sort", "uniq", "wc", "jq", "yq", "tr"}
    | {"column", "fold", "nl", "ts", "xargs"}
)


def status_hidden(command: str) -> bool:
    """Whether ``command``'s exit status is not its work's: its last step filters the work's output
    (``make 2>&1 | tail -20``, ``npm test > t.log; grep -n FAIL t.log``) or excuses it (``|| true``), and
    nothing brings the work's status back (``set -o pipefail``, ``${PIPESTATUS[0]}``). Such a run that
    does not read as failed has not been seen to pass either."""
    if "pipefail" in command or "PIPESTATUS" in command:
        return False
    try:
        segments, operators = split_segments(command)
    except ValueError:
        return False
    if not operators or not segments[-1]:
        return False
    last, program = operators[-1], segments[-1][0]
    if last in ("|", "|&", ";"):
        return program in _FILTERS
    return last == "||" and program in ("true", ":")


def _tokenise(text: str) -> list[str]:
    lexer = shlex.shlex(text, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    lexer.commenters = ""
    return [token for token in lexer if token.strip()]


def _joined_substitutions(tokens: list[str]) -> list[str]:
    """``tokens`` with each command substitution opened by a word (``GIT_SHA=$(git rev-parse HEAD)``, which
    the lexer cuts at its parentheses) joined back into that word, so an assignment stays one word."""
    if "(" not in tokens:
        return tokens
    out: list[str] = []
    index = 0
    while index < len(tokens):
        token = tokens[index]
        end = _substitution_end(tokens, index) if token.endswith("$") else None
        if end is None:
            out.append(token)
            index += 1
            continue
        out.append(f"{token}({' '.join(tokens[index + 2 : end])})")
        index = end + 1
    return out


def _substitution_end(tokens: list[str], at: int) -> int | None:
    """Where the ``$(`` opened at ``tokens[at + 1]`` closes (a lone ``)``), or None."""
    if at + 1 >= len(tokens) or tokens[at + 1] != "(":
        return None
    depth = 0
    for index in range(at + 1, len(tokens)):
        token = tokens[index]
        if _is_punctuation(token):
            depth += token.count("(") - token.count(")")
            if depth == 0:
                return index if token == ")" else None
    return None


def _unwrap_subshell(tokens: list[str]) -> list[str]:
    while len(tokens) >= 2 and tokens[0] == "(" and tokens[-1] == ")" and _closes_at_end(tokens):
        tokens = tokens[1:-1]
    return tokens


def _closes_at_end(tokens: list[str]) -> bool:
    depth = 0
    for index, token in enumerate(tokens):
        depth += token.count("(") if _is_punctuation(token) else 0
        depth -= token.count(")") if _is_punctuation(token) else 0
        if depth == 0 and index < len(tokens) - 1:
            return False
    return depth == 0


def _split(tokens: list[str]) -> tuple[list[list[str]], list[str]]:
    """Split on top-level operators (parentheses keep ``$(a | b)`` in one segment). An output
    redirection and its target (``> out.log``, ``2>> err.log``, ``&> all.log``) change where output
    goes, not what runs, and are dropped; an input redirection (``< schema.sql``) is kept: it is what
    the program reads."""
    segments: list[list[str]] = [[]]
    operators: list[str] = []
    depth = 0
    target = False  # the next word is where output goes
    for token in tokens:
        if target:
            target = False
            if not _is_punctuation(token):
                continue
        if depth == 0 and token in _OUTPUT_REDIRECTS:
            if segments[-1] and segments[-1][-1] in ("1", "2"):
                segments[-1].pop()  # `2> err.log`: the descriptor went with it
            target = True
            continue
        if _is_punctuation(token):
            depth += token.count("(") - token.count(")")
        if depth == 0 and token in _OPERATORS:
            if segments[-1]:  # an operator with nothing before it (`; a`) separates nothing
                operators.append(token)
                segments.append([])
        else:
            segments[-1].append(token)
    if not segments[-1] and operators:  # `a &` or `a ;` ends on an operator
        segments.pop()
        operators.pop()
    return segments, operators


def _drop_leading_steps(segments: list[list[str]], operators: list[str]) -> None:
    while len(segments) > 1 and operators[0] in ("&&", ";") and _is_setup_step(segments[0]):
        del segments[0], operators[0]


def _is_setup_step(segment: list[str]) -> bool:
    if segment[0] in _DIR_CHANGES and len(segment) <= 2:
        return True
    return segment[0] == "sleep" and len(segment) == 2 and bool(_DURATION.match(segment[1]))


def _drop_trailing_pagers(segments: list[list[str]], operators: list[str]) -> None:
    while len(segments) > 1 and operators[-1] in ("|", "|&") and segments[-1][0] in _PAGERS:
        del segments[-1], operators[-1]


def _drop_wrappers(segment: list[str]) -> list[str]:
    while segment:
        if segment[0] == "time":
            segment = segment[1:]
        elif segment[0] == "timeout" and len(segment) > 2 and _DURATION.match(segment[1]):
            segment = segment[2:]
        else:
            return segment
    return segment


def _is_flag(token: str) -> bool:
    return token.startswith("-") and token not in ("-", "--") and not _is_punctuation(token)


def _sort_flag_runs(segment: list[str]) -> list[str]:
    out = list(segment[:1])
    index = 1
    while index < len(segment):
        token = segment[index]
        if token == "--":
            out.extend(segment[index:])
            break
        if not _is_flag(token):
            out.append(token)
            index += 1
            continue
        end = index
        while end < len(segment) and _is_flag(segment[end]):
            end += 1
        out.extend(sorted(segment[index:end]))
        index = end
    return out


def _is_punctuation(token: str) -> bool:
    return bool(token) and all(char in _PUNCTUATION for char in token)


def _render(words: list[str]) -> list[str]:
    return [word if _is_punctuation(word) else shlex.quote(word) for word in words]
