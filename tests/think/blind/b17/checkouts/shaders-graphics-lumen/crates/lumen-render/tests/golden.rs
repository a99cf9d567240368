mod common;

#[test]
fn golden_triangle() { common::render_and_compare("triangle", 2).unwrap(); }

#[test]
fn golden_gbuffer() { common::render_and_compare("gbuffer", 2).unwrap(); }

#[test]
fn golden_lighting() { common::render_and_compare("lighting", 2).unwrap(); }

#[test]
fn golden_tonemap() { common::render_and_compare("tonemap", 2).unwrap(); }
