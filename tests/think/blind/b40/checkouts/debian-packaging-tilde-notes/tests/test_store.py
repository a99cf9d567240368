from tilde_notes.store import NoteStore


def test_roundtrip(tmp_path):
    store = NoteStore(tmp_path)
    store.add("groceries", "milk, eggs")
    assert store.get("groceries") == "milk, eggs"


def test_list_sorted(tmp_path):
    store = NoteStore(tmp_path)
    store.add("b", "2")
    store.add("a", "1")
    assert store.names() == ["a", "b"]
