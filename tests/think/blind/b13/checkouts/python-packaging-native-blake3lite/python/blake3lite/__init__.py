from blake3lite._blake3lite import digest, hexdigest

__all__ = ["digest", "hexdigest"]
