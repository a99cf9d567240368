use ferrocache_server::test_support::spawn_server;

#[tokio::test]
async fn evicts_under_memory_pressure() {
    let srv = spawn_server().with_max_memory(1 << 20).await;
    for i in 0..10_000 {
        srv.set(format!("k{i}"), vec![0u8; 512]).await.unwrap();
    }
    assert!(srv.stats().await.evictions > 0);
}
