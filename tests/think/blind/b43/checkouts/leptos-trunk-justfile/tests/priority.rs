use tickets::model::{Priority, Ticket};

#[test]
fn urgent_sorts_first() {
    let mut t = vec![Ticket::new("a", Priority::Low), Ticket::new("b", Priority::Urgent)];
    t.sort_by_key(|t| std::cmp::Reverse(t.priority));
    assert_eq!(t[0].title, "b");
}
