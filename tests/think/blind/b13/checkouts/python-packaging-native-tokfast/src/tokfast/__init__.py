from tokfast._tokenize import tokenize, Token

__all__ = ["tokenize", "Token"]
__version__ = "1.4.0"
