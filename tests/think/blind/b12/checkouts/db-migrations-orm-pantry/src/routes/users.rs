use axum::{extract::{Path, State}, http::StatusCode, Json};
use serde::Serialize;
use sqlx::PgPool;
use uuid::Uuid;

#[derive(Serialize)]
pub struct User {
    pub id: Uuid,
    pub email: String,
}

pub async fn get_user(State(pool): State<PgPool>, Path(id): Path<Uuid>) -> Result<Json<User>, StatusCode> {
    sqlx::query_as!(User, "SELECT id, email FROM users WHERE id = $1", id)
        .fetch_optional(&pool)
        .await
        .map_err(|_| StatusCode::INTERNAL_SERVER_ERROR)?
        .map(Json)
        .ok_or(StatusCode::NOT_FOUND)
}
