use axum::{routing::get, Router};
use sqlx::PgPool;

mod keys;
mod users;

pub fn router(pool: PgPool) -> Router {
    Router::new()
        .route("/users/:id", get(users::get_user))
        .route("/users/:id/keys/:key_id", get(keys::get_key))
        .with_state(pool)
}
