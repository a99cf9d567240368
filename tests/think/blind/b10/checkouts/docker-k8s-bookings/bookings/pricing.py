from datetime import date


def nightly_rate(base: int, night: date) -> int:
    return base
