"""Detector packs: loading and validating detector YAML, and the plugin boundary.

Nothing is imported eagerly here, so importing one submodule (the hook
specifications, say) does not pull in YAML, Jinja and jsonschema.
"""
