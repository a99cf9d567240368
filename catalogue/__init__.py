"""The built-in detector catalogue: one YAML file per detector (package data)."""
