"""Jinja templates of a new pack (``second-brain pack new``); package data, read by sbcore.packs.scaffold."""
