use api::router::router;
use api::test_support::{test_state, get};

#[tokio::test]
async fn healthz_is_ok() {
    let app = router(test_state().await);
    let resp = get(&app, "/healthz").await;
    assert_eq!(resp.status(), 200);
}

#[tokio::test]
async fn unknown_route_is_404() {
    let app = router(test_state().await);
    assert_eq!(get(&app, "/nope").await.status(), 404);
}
