"""tilde-notes: plain-text notes."""
__version__ = "0.9.1"
from .store import NoteStore
