//! Browser safety, token or not: a web page the user visits must not drive
//! the coordinator through the user's browser.
//!
//! - A state-changing request (`POST`) must carry a JSON content type or
//!   the `x-pf1e-request` header: neither can be sent cross-origin without
//!   a CORS preflight, which this server never grants (a `text/plain` form
//!   post is refused).
//! - A request with an `Origin` header must come from this very origin
//!   (scheme aside: the host and port of the `Host` header).
//! - On a loopback listener the `Host` must be a loopback name or address
//!   (DNS rebinding: `evil.example` resolving to 127.0.0.1 is refused). On
//!   another listener a `Host` that is an IP address must be the listener's;
//!   names are served (a cluster reaches the coordinator by its DNS names).
//!
//! Every request also gets its response's head within [`REQUEST_TIMEOUT`].

use std::net::{IpAddr, SocketAddr};

use axum::extract::Request;
use axum::http::header::{CONTENT_TYPE, HOST, ORIGIN};
use axum::http::{Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::error::error_body;

/// The custom header that marks a request as sent by a script of this
/// dashboard or a tool (browsers send it cross-origin only after a preflight).
pub const REQUEST_HEADER: &str = "x-pf1e-request";

/// Longest an HTTP request may take to get its response's head.
const REQUEST_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(30);

/// Refuses what a foreign page could send through a browser.
pub(super) async fn require(listen: SocketAddr, req: Request, next: Next) -> Response {
    match check(listen, &req) {
        // A response (its head: an event stream's body goes on) comes in
        // bounded time.
        Ok(()) => match tokio::time::timeout(REQUEST_TIMEOUT, next.run(req)).await {
            Ok(response) => response,
            Err(_) => (StatusCode::SERVICE_UNAVAILABLE, error_body("the request timed out")).into_response(),
        },
        Err((status, why)) => {
            tracing::warn!(%why, method = %req.method(), path = req.uri().path(), "browser guard refused a request");
            (status, error_body(&why)).into_response()
        }
    }
}

fn check(listen: SocketAddr, req: &Request) -> Result<(), (StatusCode, String)> {
    let header = |name| req.headers().get(name).and_then(|v| v.to_str().ok());
    let host = header(HOST).or_else(|| req.uri().authority().map(|a| a.as_str()));
    if let Some(host) = host
        && !host_allowed(listen, host)
    {
        return Err((
            StatusCode::MISDIRECTED_REQUEST,
            format!("host {host:?} is not this coordinator's address"),
        ));
    }
    if let Some(origin) = header(ORIGIN) {
        let same = host.is_some_and(|h| origin_authority(origin).is_some_and(|o| o.eq_ignore_ascii_case(h)));
        if !same {
            return Err((StatusCode::FORBIDDEN, format!("cross-origin request from {origin:?} refused")));
        }
    }
    if req.method() != Method::GET && req.method() != Method::HEAD {
        let json = header(CONTENT_TYPE)
            .and_then(|v| v.split(';').next())
            .is_some_and(|m| m.trim().eq_ignore_ascii_case("application/json"));
        if !json && !req.headers().contains_key(REQUEST_HEADER) {
            return Err((
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                format!(
                    "a {} needs `content-type: application/json` or an `{REQUEST_HEADER}` header",
                    req.method()
                ),
            ));
        }
    }
    Ok(())
}

/// `host[:port]` of an origin (`http://host:port`), `None` for `null` or junk.
fn origin_authority(origin: &str) -> Option<&str> {
    let (_, rest) = origin.split_once("://")?;
    Some(rest.trim_end_matches('/'))
}

/// The host part of a `Host` header, brackets of IPv6 literals removed.
fn host_name(host: &str) -> &str {
    if let Some(rest) = host.strip_prefix('[') {
        return rest.split(']').next().unwrap_or(rest);
    }
    match host.rsplit_once(':') {
        Some((name, port)) if port.chars().all(|c| c.is_ascii_digit()) => name,
        _ => host,
    }
}

fn is_loopback_name(name: &str) -> bool {
    let name = name.trim_end_matches('.').to_ascii_lowercase();
    name == "localhost"
        || name.ends_with(".localhost")
        || name.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

fn host_allowed(listen: SocketAddr, host: &str) -> bool {
    let name = host_name(host);
    if listen.ip().is_loopback() {
        return is_loopback_name(name);
    }
    match name.parse::<IpAddr>() {
        Ok(ip) => ip == listen.ip() || listen.ip().is_unspecified() || ip.is_loopback(),
        Err(_) => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req(method: Method, headers: &[(&str, &str)]) -> Request {
        let mut b = Request::builder().method(method).uri("/api/sweeps/1/cancel");
        for (k, v) in headers {
            b = b.header(*k, *v);
        }
        b.body(axum::body::Body::empty()).unwrap()
    }

    const LOOPBACK: &str = "127.0.0.1:7071";

    fn code(listen: &str, method: Method, headers: &[(&str, &str)]) -> Option<u16> {
        check(listen.parse().unwrap(), &req(method, headers)).err().map(|(s, _)| s.as_u16())
    }

    #[test]
    fn a_cross_origin_text_post_is_refused_and_the_dashboard_s_own_calls_pass() {
        let host = ("host", "127.0.0.1:7071");
        assert_eq!(code(LOOPBACK, Method::POST, &[host, ("content-type", "text/plain")]), Some(415));
        assert_eq!(code(LOOPBACK, Method::POST, &[host]), Some(415));
        assert_eq!(
            code(LOOPBACK, Method::POST, &[host, ("content-type", "application/json; charset=utf-8")]),
            None
        );
        assert_eq!(code(LOOPBACK, Method::POST, &[host, (REQUEST_HEADER, "1")]), None);
        let evil = ("origin", "https://evil.example");
        assert_eq!(
            code(LOOPBACK, Method::POST, &[host, evil, ("content-type", "application/json")]),
            Some(403)
        );
        assert_eq!(code(LOOPBACK, Method::GET, &[host, evil]), Some(403));
        let same = ("origin", "http://127.0.0.1:7071");
        assert_eq!(code(LOOPBACK, Method::POST, &[host, same, (REQUEST_HEADER, "1")]), None);
        assert_eq!(code(LOOPBACK, Method::GET, &[host]), None);
    }

    #[test]
    fn a_rebinding_host_is_refused_on_loopback_and_names_pass_elsewhere() {
        assert_eq!(code(LOOPBACK, Method::GET, &[("host", "evil.example:7071")]), Some(421));
        for ok in ["localhost:7071", "127.0.0.1", "[::1]:7071", "app.localhost"] {
            assert_eq!(code(LOOPBACK, Method::GET, &[("host", ok)]), None, "{ok}");
        }
        assert_eq!(code("0.0.0.0:7071", Method::GET, &[("host", "pf1e-coordinator:7071")]), None);
        assert_eq!(code("10.0.0.5:7071", Method::GET, &[("host", "10.0.0.6:7071")]), Some(421));
        assert_eq!(code("10.0.0.5:7071", Method::GET, &[("host", "10.0.0.5:7071")]), None);
    }
}
