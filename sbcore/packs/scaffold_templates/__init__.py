"""Jinja templates of a new pack (``second-brain pack new``): package data for sbcore.testing.scaffold."""
