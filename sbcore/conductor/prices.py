"""What tokens cost: list prices per model family, to estimate the observer's spend beside the agent's.

An estimate, said to be one wherever it is shown: USD per million tokens at the providers' published list
prices for the model families the observer defaults to or a primary agent commonly runs, matched by the
longest name prefix. Cache reads are billed at 0.1× the input price and cache writes at 1.25× (the
five-minute cache, which is what the observer writes). A model not listed gets no cost rather than a guess:
``second-brain stats`` names it.
"""

from __future__ import annotations

from collections.abc import Mapping

PRICES: Mapping[str, tuple[float, float]] = {
    # model name prefix: (input, output) USD per million tokens
    "claude-haiku-4": (1.0, 5.0),
    "claude-3-5-haiku": (0.8, 4.0),
    "claude-3-haiku": (0.25, 1.25),
    "claude-sonnet-4": (3.0, 15.0),
    "claude-3-7-sonnet": (3.0, 15.0),
    "claude-3-5-sonnet": (3.0, 15.0),
    "claude-opus-4-5": (5.0, 25.0),
    "claude-opus-4-6": (5.0, 25.0),
    "claude-opus-4-1": (15.0, 75.0),
    "claude-opus-4-2025": (15.0, 75.0),  # claude-opus-4-20250514; a later opus is not guessed
    "gpt-4.1-nano": (0.1, 0.4),
    "gpt-4.1-mini": (0.4, 1.6),
    "gpt-4.1": (2.0, 8.0),
    "gpt-4o-mini": (0.15, 0.6),
    "gpt-4o": (2.5, 10.0),
}
CACHE_READ = 0.1
CACHE_WRITE = 1.25


def price(model: str) -> tuple[float, float] | None:
    """(input, output) USD per million tokens of ``model``, by its longest listed prefix; None if unlisted."""
    matches = [prefix for prefix in PRICES if model.startswith(prefix)]
    return PRICES[max(matches, key=len)] if matches else None


def cost(model: str, tokens: Mapping[str, int]) -> float | None:
    """The estimated USD cost of ``tokens`` (input, output, cache_read, cache_write) on ``model``."""
    rates = price(model)
    if rates is None:
        return None
    per_input, per_output = rates
    total = (
        tokens.get("input_tokens", 0) * per_input
        + tokens.get("output_tokens", 0) * per_output
        + tokens.get("cache_read_tokens", 0) * per_input * CACHE_READ
        + tokens.get("cache_write_tokens", 0) * per_input * CACHE_WRITE
    )
    return total / 1_000_000
