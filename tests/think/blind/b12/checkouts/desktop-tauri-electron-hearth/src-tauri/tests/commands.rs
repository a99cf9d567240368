use hearth_lib::store::{Note, NoteStore};
use tempfile::tempdir;

#[test]
fn save_then_list_returns_note() {
    let dir = tempdir().unwrap();
    let store = NoteStore::open(dir.path().join("notes.db")).unwrap();
    store.upsert(Note::new("groceries", "milk, eggs")).unwrap();
    let notes = store.all().unwrap();
    assert_eq!(notes.len(), 1);
    assert_eq!(notes[0].title, "groceries");
}
