use budget_yew::store::{Action, BudgetStore};
use wasm_bindgen_test::*;
use yewdux::prelude::Reducer;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn add_expense_updates_total() {
    let store = std::rc::Rc::new(BudgetStore::default());
    let store = Action::AddExpense { label: "coffee".into(), cents: 350 }.apply(store);
    assert_eq!(store.total_cents(), 350);
}

#[wasm_bindgen_test]
fn remove_expense_by_id() {
    let store = std::rc::Rc::new(BudgetStore::default());
    let store = Action::AddExpense { label: "rent".into(), cents: 120_000 }.apply(store);
    let id = store.expenses[0].id;
    let store = Action::Remove(id).apply(store);
    assert!(store.expenses.is_empty());
}
