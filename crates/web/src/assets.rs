//! The UI's files, embedded at build time (see build.rs): `/` is the single page, everything else
//! is looked up by path.

use axum::http::{StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};

use crate::model::ApiError;

include!(concat!(env!("OUT_DIR"), "/assets.rs"));

fn content_type(path: &str) -> &'static str {
    match path.rsplit('.').next().unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "js" => "text/javascript; charset=utf-8",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "ico" => "image/x-icon",
        "json" => "application/json",
        _ => "application/octet-stream",
    }
}

pub async fn serve(uri: Uri) -> Response {
    let path = uri.path().trim_start_matches('/');
    if path.starts_with("api/") {
        return ApiError::not_found(format!("no endpoint {}", uri.path())).into_response();
    }
    let path = if path.is_empty() { "index.html" } else { path };
    match ASSETS.iter().find(|(name, _)| *name == path) {
        Some((name, bytes)) => (
            StatusCode::OK,
            [
                (header::CONTENT_TYPE, content_type(name)),
                // Small files from memory: always revalidate, so a new build shows at once.
                (header::CACHE_CONTROL, "no-cache"),
            ],
            *bytes,
        )
            .into_response(),
        None => ApiError::not_found(format!("no page {}", uri.path())).into_response(),
    }
}
