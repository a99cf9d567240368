"""Minimal host-side stand-in for the MicroPython machine module."""


class Pin:
    OUT = 1
    IN = 0

    def __init__(self, id, mode=IN, value=None):
        self.id = id
        self._v = value or 0

    def value(self, v=None):
        if v is None:
            return self._v
        self._v = v
