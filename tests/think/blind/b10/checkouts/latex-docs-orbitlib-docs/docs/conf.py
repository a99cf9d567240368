import os
import sys

sys.path.insert(0, os.path.abspath("_ext"))

project = "orbitlib"
extensions = ["sphinx.ext.autodoc", "sphinx.ext.napoleon", "glossary_links"]
html_theme = "furo"
glossary_links_max_per_page = 1
