from .metrics import duplication_rate, insert_size_summary

__all__ = ["duplication_rate", "insert_size_summary"]
