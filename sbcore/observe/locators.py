"""Locators: the paths and ``file:line`` tokens that index the observer into the repository.

Projection may shorten any payload but never a locator (design, "Locators are never
elided"): a path is how the observer grounds what it says, and how it reads the file
itself when the payload matters. This module

* finds locator-shaped tokens in text, so an elision can list the ones it removes;
* renders a list of them compactly (grouped by directory once there are many);
* expands that compact form again, so ``measure`` can check that every locator survived.

The token rules are deliberately conservative. A false positive costs volume on every
marker that carries it; a false negative is a coordinate the observer never sees. What
counts as a locator:

* a path with a leading ``/``, ``./``, ``../`` or ``~/``;
* a relative path of two or more segments whose last segment has a file extension
  (``src/app.py``), or of three or more segments (``services/foo/deploy``), or ending in
  ``/`` (``src/utils/``);
* a bare file name with a common source/config extension (``README.md``, ``setup.py``);

each optionally followed by ``:line``, ``:line:col`` or ``:start-end``. URLs are not
locators (they do not point into the repository) and are skipped whole.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

# Argument names whose values are locators and are always kept whole, whatever the tool.
LOCATOR_KEYS: tuple[str, ...] = ("file_path", "notebook_path", "path", "pattern", "glob", "offset", "limit")

_EXTENSIONS = (
    "py|pyi|pyx|go|rs|js|mjs|cjs|ts|mts|cts|tsx|jsx|java|kt|kts|scala|rb|php|c|h|cc|cpp|cxx|hpp|hh|cs|"
    "swift|m|mm|sh|bash|zsh|fish|ps1|bat|md|mdx|rst|txt|adoc|json|jsonl|ndjson|yaml|yml|toml|ini|cfg|conf|"
    "env|lock|xml|html|htm|css|scss|sass|less|vue|svelte|astro|sql|proto|graphql|gql|tf|tfvars|hcl|lua|"
    "pl|pm|ex|exs|erl|hrl|hs|ml|mli|nix|dart|zig|gradle|mk|cmake|ipynb|csv|tsv|log|diff|patch|j2|jinja|"
    "tmpl|tpl|mod|sum|dockerfile|service|plist|gemspec|rake|ambr|snap|pem|crt|key|pub"
)
# Runs of path characters; everything else (spaces, quotes, brackets, ``=``, ``,`` …) separates.
_RUN = re.compile(r"[\w@%+.~/:-]+")


def _trie(words: Iterable[str]) -> str:
    """An alternation of ``words`` (letters and digits) with shared prefixes factored out.

    ``re`` tries an alternation's branches one by one at every candidate position; factored, it reads one
    character per step instead. Every extension is made of word characters and the anchor must end at a
    non-word character, so at most one branch can match at a position: the factored form finds the same.
    """
    by_first: dict[str, list[str]] = {}
    for word in words:
        by_first.setdefault(word[0], []).append(word[1:])
    branches = []
    for first, rests in sorted(by_first.items()):
        longer = [rest for rest in rests if rest]
        if not longer:
            branches.append(re.escape(first))
        else:
            optional = "?" if len(longer) < len(rests) else ""
            branches.append(f"{re.escape(first)}(?:{_trie(longer)}){optional}")
    return "|".join(branches)


# Where a locator can be: a slash, or a dot starting a known extension. The two are looked for apart:
# ``str.find`` finds a slash at memory-scan speed, and a pattern opening with a literal dot lets ``re``
# skip to the next dot, where the alternation of both was tried at every position (about twice as slow).
_EXT_DOT = re.compile(rf"\.(?:{_trie(_EXTENSIONS.split('|'))})(?![\w-])")
_TOKEN_MAX = 300  # longer "paths" are data (base64, minified code), not locators
_WORD_MAX = 1024  # how far back a word may start before its anchor
_NON_SPACE = re.compile(r"\S*")
# Words recur (the same paths, edit after edit): their tokens are remembered, boundedly.
_WORD_CACHE: dict[str, tuple[str, ...]] = {}
_WORD_CACHE_MAX = 8192
_BARE_FILE = re.compile(rf"[\w-][\w.-]*\.(?:{_EXTENSIONS})")
_EXT_TAIL = re.compile(rf"\.(?:{_EXTENSIONS})$")
_HAS_LETTER = re.compile(r"[A-Za-z]")
_LINE_PART = re.compile(r"\d+(?:-\d+)?")
_GROUP = re.compile(r"([^\s{},;]*)\{([^{}\s]*)\}")


def forget_words() -> None:
    """Empty the word memo, so a measurement starts cold instead of reusing an earlier run's words."""
    _WORD_CACHE.clear()


def _accept_path(token: str) -> bool:
    """Apply the relative-path rules the regular expression cannot express cheaply."""
    if not _HAS_LETTER.search(token):
        return False  # dates, fractions, ratios
    if token[0] in "/~" or token.startswith(("./", "../")):
        return len(token) > 2 and any(part for part in token.split("/")[1:])
    segments = token.split("/")
    if "" in segments[:-1]:
        return False  # "a//b": not a path
    if segments[-1] == "":
        return len(segments) >= 3  # "src/utils/"
    if len(segments) >= 3:
        return True
    return _EXT_TAIL.search(segments[-1]) is not None


def harvest(text: str) -> list[str]:
    """Locator tokens in ``text``, first occurrence order, without duplicates.

    Only words holding an anchor (a ``/``, or a ``.`` and a known extension) are looked
    at: a C-speed scan finds the anchors, so plain prose and code cost little.
    """
    return list(harvest_located(text))


def harvest_located(text: str) -> dict[str, int]:
    """:func:`harvest`'s tokens, each with where the word it first occurs in starts."""
    found: dict[str, int] = {}
    if "/" not in text and "." not in text:
        return found
    find, search = text.find, _EXT_DOT.search
    slash, dot = find("/"), search(text)  # the next anchor of each sort (-1, None: there is none)
    while True:
        if dot is not None and (slash < 0 or dot.start() < slash):
            at = dot.start()
        elif slash >= 0:
            at = slash
        else:
            break
        low = at - _WORD_MAX if at > _WORD_MAX else 0
        start = max(text.rfind(" ", low, at), text.rfind("\n", low, at)) + 1
        if start == 0 and low:
            start = low
        gap = text[start:at]
        if "\t" in gap or "\r" in gap:  # rare whitespace: find the real word start
            start += max(gap.rfind("\t"), gap.rfind("\r")) + 1
        stop = _NON_SPACE.match(text, at).end()  # type: ignore[union-attr]  # \S* always matches
        word = text[start:stop]
        tokens = _WORD_CACHE.get(word)
        if tokens is None:
            tokens = _harvest_word(word)
            if len(_WORD_CACHE) >= _WORD_CACHE_MAX:
                _WORD_CACHE.clear()
            _WORD_CACHE[word] = tokens
        for token in tokens:
            found.setdefault(token, start)
        # the next anchors after this word
        if 0 <= slash < stop:
            slash = find("/", stop)
        if dot is not None and dot.start() < stop:
            dot = search(text, stop)
    return found


def _harvest_word(word: str) -> tuple[str, ...]:
    tokens: list[str] = []
    for run in _RUN.findall(word):
        if "://" in run or ("/" not in run and "." not in run):
            continue  # a URL, or a run without a path character
        parts = run.split(":")
        index = 0
        while index < len(parts):
            base = parts[index].rstrip(".")
            index += 1
            suffix = ""
            while index < len(parts) and len(suffix) < 12 and _LINE_PART.fullmatch(parts[index]):
                suffix += ":" + parts[index]
                index += 1
            if len(base) <= _TOKEN_MAX and _is_locator(base):
                tokens.append(base + suffix)
    return tuple(tokens)


def _is_locator(token: str) -> bool:
    if "/" in token:
        return _accept_path(token)
    return "." in token and _BARE_FILE.fullmatch(token) is not None


def compact(tokens: Iterable[str], harvest_max: int) -> str:
    """Render locators for a marker: listed plainly up to ``harvest_max``, grouped beyond.

    Grouping keeps every token (``src/{a.py,b.py}``) rather than dropping any: a marker
    that silently loses coordinates would be a truncation the observer cannot see.
    """
    items = list(dict.fromkeys(tokens))
    if len(items) <= harvest_max:
        return ", ".join(items)
    groups: dict[str, list[str]] = {}
    for token in items:
        head, sep, name = token.rpartition("/")
        key = head + sep if sep and name else ""
        groups.setdefault(key, []).append(name if key else token)
    rendered: list[str] = []
    for directory, names in groups.items():
        if directory and len(names) > 1 and not any(c in name for name in names for c in "{},"):
            rendered.append(f"{directory}{{{','.join(names)}}}")
        else:
            rendered.extend(directory + name for name in names)
    return ", ".join(rendered)


def expand(text: str) -> set[str]:
    """Every ``dir/{a,b}`` group in ``text`` expanded to ``dir/a`` and ``dir/b``."""
    out: set[str] = set()
    for match in _GROUP.finditer(text):
        prefix = match.group(1)
        for name in match.group(2).split(","):
            if name:
                out.add(prefix + name)
    return out


def is_kept(locator: str, text: str, expanded: set[str]) -> bool:
    """True when ``locator`` is readable in ``text``: verbatim or inside a group."""
    return locator in text or locator in expanded
