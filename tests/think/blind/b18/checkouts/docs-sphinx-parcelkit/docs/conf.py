project = "parcelkit"
extensions = ["sphinx.ext.autodoc", "sphinx.ext.intersphinx"]
html_theme = "furo"
intersphinx_mapping = {"python": ("https://docs.python.org/3", None)}
