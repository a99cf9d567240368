"""Notes are cut by heading, each chunk with the anchor a renderer gives its heading."""

from __future__ import annotations

from sbcore.state.recall_chunks import chunk_note, slug


def test_markdown_is_cut_at_headings_with_renderer_anchors() -> None:
    text = "intro line\n# Title\nbody\n## Why not Redis?\nbecause\n## Why not Redis?\nagain\n"
    chunks = chunk_note("docs/adr/1.md", text)
    assert [(c.anchor, c.heading, c.body) for c in chunks] == [
        ("", "", "intro line"),
        ("title", "Title", "body"),
        ("why-not-redis", "Why not Redis?", "because"),
        ("why-not-redis-1", "Why not Redis?", "again"),
    ]
    assert chunks[0].handle("docs/adr/1.md") == "docs/adr/1.md"
    assert chunks[2].handle("docs/adr/1.md") == "docs/adr/1.md#why-not-redis"


def test_a_heading_inside_a_code_fence_is_text() -> None:
    text = "# Setup\n```sh\n# not a heading\nmake\n```\n# Next\nx\n"
    chunks = chunk_note("n.md", text)
    assert [c.anchor for c in chunks] == ["setup", "next"]
    assert "# not a heading" in chunks[0].body


def test_a_file_that_is_not_markdown_is_one_chunk() -> None:
    [chunk] = chunk_note("notes.txt", "# not a heading here\nplain text\n")
    assert chunk.anchor == "" and chunk.body.startswith("# not a heading")


def test_slug_drops_punctuation_and_keeps_words() -> None:
    assert slug("Fix for `psycopg.errors.X`: slots!") == "fix-for-psycopgerrorsx-slots"
    assert chunk_note("a.md", "# ???\nx\n")[0].anchor == "section"
