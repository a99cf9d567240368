use todo_app::model::{Filter, Todo, TodoStore};

fn store() -> TodoStore {
    let mut s = TodoStore::default();
    s.add(Todo::new(1, "write docs"));
    s.add(Todo::new(2, "ship release"));
    s.toggle(2);
    s
}

#[test]
fn active_filter_hides_completed() {
    let s = store();
    let visible: Vec<_> = s.visible(Filter::Active).map(|t| t.id).collect();
    assert_eq!(visible, vec![1]);
}

#[test]
fn completed_filter_shows_only_done() {
    let s = store();
    let visible: Vec<_> = s.visible(Filter::Completed).map(|t| t.id).collect();
    assert_eq!(visible, vec![2]);
}

#[test]
fn remaining_count_ignores_completed() {
    assert_eq!(store().remaining(), 1);
}
