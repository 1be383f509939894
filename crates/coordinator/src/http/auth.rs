//! The bearer token on every data endpoint: the same check, and the same
//! token, as the gRPC services'. The pages' assets and the two probes carry
//! no data and answer without it (the page must load to ask for the token).

use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::http::header::{AUTHORIZATION, WWW_AUTHENTICATE};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::error::error_body;
use super::state::AppState;

pub(super) async fn require(State(st): State<AppState>, req: Request, next: Next) -> Response {
    match st.auth.check(req.headers().get(AUTHORIZATION).map(|v| v.as_bytes())) {
        Ok(()) => next.run(req).await,
        Err(refusal) => {
            (StatusCode::UNAUTHORIZED, [(WWW_AUTHENTICATE, "Bearer")], error_body(&refusal.to_string()))
                .into_response()
        }
    }
}
