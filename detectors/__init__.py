"""The built-in detector pack.

It registers through the same ``sbcore`` entry-point group as any third-party
pack, so the core has no private path to its own detectors.
"""
