// Integration tests; need DATABASE_URL pointing at a scratch database.
#[sqlx::test]
async fn get_key_returns_404_for_other_user(pool: sqlx::PgPool) {
    let _ = pool; // see tests/common for fixtures
}
