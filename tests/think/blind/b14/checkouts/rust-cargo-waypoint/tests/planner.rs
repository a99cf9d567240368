use waypoint::{Planner, Point};

#[test]
fn plans_direct_leg_when_no_via() {
    let plan = Planner::default().plan(Point::new(0.0, 0.0), Point::new(0.0, 1.0), None);
    assert_eq!(plan.legs().len(), 1);
}

#[test]
fn no_zero_length_legs() {
    let via = vec![Point::new(0.5, 0.5), Point::new(0.5, 0.5)];
    let plan = Planner::default().plan(Point::new(0.0, 0.0), Point::new(1.0, 1.0), Some(via));
    let legs = plan.legs();
    for i in 0..legs.len() {
        assert!(legs[i].distance_m > 0.0, "leg {i} has zero length");
    }
}
