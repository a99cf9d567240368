import responses

from feeds_ingest.http import fetch


@responses.activate
def test_fetch_returns_body():
    responses.get("https://example.org/feed.xml", body=b"<rss/>")
    assert fetch("https://example.org/feed.xml") == b"<rss/>"
