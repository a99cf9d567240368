from .pipeline import run

__all__ = ["run"]
