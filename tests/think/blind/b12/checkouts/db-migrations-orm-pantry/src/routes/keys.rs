use axum::{extract::{Path, State}, http::StatusCode, Json};
use serde::Serialize;
use sqlx::PgPool;
use uuid::Uuid;

#[derive(Serialize)]
pub struct ApiKey {
    pub id: Uuid,
    pub label: String,
    pub prefix: String,
}

pub async fn get_key(
    State(pool): State<PgPool>,
    Path((user_id, key_id)): Path<(Uuid, Uuid)>,
) -> Result<Json<ApiKey>, StatusCode> {
    sqlx::query_as!(
        ApiKey,
        "SELECT id, label, prefix FROM api_keys WHERE id = $1 AND user_id = $2",
        key_id,
        user_id
    )
    .fetch_optional(&pool)
    .await
    .map_err(|_| StatusCode::INTERNAL_SERVER_ERROR)?
    .map(Json)
    .ok_or(StatusCode::NOT_FOUND)
}
