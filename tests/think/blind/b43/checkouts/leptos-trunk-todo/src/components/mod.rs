pub mod todo_item;
pub mod todo_list;
