use crate::store::{Note, NoteStore};
use tauri::State;

#[tauri::command]
pub fn list_notes(store: State<'_, NoteStore>) -> Result<Vec<Note>, String> {
    store.all().map_err(|e| e.to_string())
}

#[tauri::command]
pub fn save_note(store: State<'_, NoteStore>, note: Note) -> Result<Note, String> {
    store.upsert(note).map_err(|e| e.to_string())
}
