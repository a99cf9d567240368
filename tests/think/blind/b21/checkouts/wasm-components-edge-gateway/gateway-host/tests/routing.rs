mod common;

use common::{send, Harness};

#[tokio::test]
async fn health_returns_200() {
    let h = Harness::load("../target/wasm32-wasip1/release/gateway.wasm").await;
    let resp = send(&h, "GET", "/healthz").await;
    assert_eq!(resp.status(), 200);
}

#[tokio::test]
async fn unknown_route_is_404() {
    let h = Harness::load("../target/wasm32-wasip1/release/gateway.wasm").await;
    let resp = send(&h, "GET", "/nope").await;
    assert_eq!(resp.status(), 404);
}
