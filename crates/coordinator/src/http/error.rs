//! JSON bodies: documents with their keys sorted (as every JSON document
//! pf1e prints) and errors as `{"error": "…"}` with their status code.

use axum::http::StatusCode;
use axum::http::header::CONTENT_TYPE;
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use crate::scheduler::SchedError;

/// Why an API request was refused.
#[derive(Debug, thiserror::Error)]
pub(super) enum ApiError {
    /// No route, or no such sweep.
    #[error("not found: {0}")]
    NotFound(String),
    /// A path or query parameter that does not parse.
    #[error("{0}")]
    BadRequest(String),
    /// The sweep has no results yet.
    #[error("sweep {id} is {status} and has no results")]
    NoResults {
        /// The sweep.
        id: u64,
        /// Its status.
        status: pf1e_wire::status::SweepStatus,
    },
    /// The scheduler refused.
    #[error(transparent)]
    Sched(#[from] SchedError),
    /// A document did not serialize.
    #[error("cannot serialize the document: {0}")]
    Json(#[from] serde_json::Error),
}

impl ApiError {
    fn status(&self) -> StatusCode {
        match self {
            ApiError::NotFound(_) | ApiError::Sched(SchedError::UnknownSweep(_)) => StatusCode::NOT_FOUND,
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::NoResults { .. } => StatusCode::CONFLICT,
            ApiError::Sched(SchedError::Store(_)) | ApiError::Json(_) => StatusCode::INTERNAL_SERVER_ERROR,
            ApiError::Sched(_) => StatusCode::BAD_REQUEST,
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = self.status();
        if status.is_server_error() {
            tracing::error!("HTTP API: {self}");
        }
        (status, error_body(&self.to_string())).into_response()
    }
}

/// `{"error": message}` as a JSON response body.
pub(super) fn error_body(message: &str) -> Response {
    ([(CONTENT_TYPE, "application/json")], serde_json::json!({ "error": message }).to_string())
        .into_response()
}

/// A document as JSON with its keys sorted.
pub(super) fn json<T: Serialize>(doc: &T) -> Result<Response, ApiError> {
    let text = serde_json::to_value(doc)?.to_string();
    Ok(([(CONTENT_TYPE, "application/json")], text).into_response())
}

/// A sweep id from a path segment.
pub(super) fn sweep_id(text: &str) -> Result<u64, ApiError> {
    text.parse().map_err(|_| ApiError::BadRequest(format!("sweep id {text:?} is not a whole number")))
}
