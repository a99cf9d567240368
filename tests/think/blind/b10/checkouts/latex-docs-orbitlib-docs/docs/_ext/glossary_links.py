"""Link the first mention of each glossary term on a page to its definition."""
from docutils import nodes
from sphinx.addnodes import pending_xref


def _terms(env):
    std = env.get_domain("std")
    return {name: (doc, anchor) for (name, objtype), (doc, anchor) in std.objects.items() if objtype == "term"}


def link_terms(app, doctree, docname):
    terms = _terms(app.env)
    seen = set()
    for text in list(doctree.findall(nodes.Text)):
        if isinstance(text.parent, (nodes.reference, pending_xref, nodes.literal, nodes.term)):
            continue
        for word in text.astext().split():
            if word in terms and word not in seen:
                seen.add(word)
                # ... split the Text node and insert a reference ...


def setup(app):
    app.add_config_value("glossary_links_max_per_page", 1, "env")
    app.connect("doctree-resolved", link_terms)
    return {"version": "0.2", "parallel_read_safe": True}
