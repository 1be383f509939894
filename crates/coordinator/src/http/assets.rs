//! The dashboard's pages: HTML, CSS and JavaScript compiled into the binary
//! (no build step, no CDN: they work on a machine without internet). They
//! hold no data: everything they show comes from the API with the token.

use axum::extract::Path;
use axum::http::StatusCode;
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE, HeaderName};
use axum::response::{IntoResponse, Response};

use super::error::ApiError;

/// Scripts, styles and fetches from this origin only; no inline script or style.
const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
                   connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// Every asset: name, content type, content.
const ASSETS: &[(&str, &str, &str)] = &[
    ("style.css", "text/css; charset=utf-8", include_str!("../../assets/style.css")),
    ("common.js", "text/javascript; charset=utf-8", include_str!("../../assets/common.js")),
    ("charts.js", "text/javascript; charset=utf-8", include_str!("../../assets/charts.js")),
    ("fleet.js", "text/javascript; charset=utf-8", include_str!("../../assets/fleet.js")),
    ("sweep.js", "text/javascript; charset=utf-8", include_str!("../../assets/sweep.js")),
];

const FLEET_HTML: &str = include_str!("../../assets/fleet.html");
const SWEEP_HTML: &str = include_str!("../../assets/sweep.html");

fn page(content_type: &str, body: &'static str) -> Response {
    (
        StatusCode::OK,
        [
            (CONTENT_TYPE, content_type),
            (CACHE_CONTROL, "no-cache"),
            (HeaderName::from_static("content-security-policy"), CSP),
            (HeaderName::from_static("x-content-type-options"), "nosniff"),
            (HeaderName::from_static("referrer-policy"), "no-referrer"),
        ],
        body,
    )
        .into_response()
}

/// `GET /`: the fleet.
pub(super) async fn fleet_page() -> Response {
    page("text/html; charset=utf-8", FLEET_HTML)
}

/// `GET /sweeps/{id}`: one sweep (the page reads its id from the path).
pub(super) async fn sweep_page() -> Response {
    page("text/html; charset=utf-8", SWEEP_HTML)
}

/// `GET /assets/{name}`.
pub(super) async fn asset(Path(name): Path<String>) -> Response {
    match ASSETS.iter().find(|(n, _, _)| *n == name) {
        Some((_, content_type, body)) => page(content_type, body),
        None => ApiError::NotFound(format!("/assets/{name}")).into_response(),
    }
}
