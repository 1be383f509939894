//! Optional shared-secret token: clients send `authorization: Bearer <token>`.
//! The token is never logged, echoed or put in an error message.

use tonic::metadata::{Ascii, MetadataValue};
use tonic::{Request, Status};

/// Why a token cannot be used. No message ever contains the token.
#[derive(Debug, thiserror::Error)]
pub enum TokenError {
    /// The token file cannot be read.
    #[error("{path}: cannot read token file: {source}")]
    Read {
        /// The file.
        path: String,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The token has characters an HTTP header cannot carry.
    #[error("the token must be printable ASCII (it travels in an `authorization` header)")]
    NotAscii,
}

/// Reads a token file: its content without surrounding whitespace; an empty file means no token.
pub fn read_token_file(path: &std::path::Path) -> Result<Option<String>, TokenError> {
    let text = std::fs::read_to_string(path)
        .map_err(|source| TokenError::Read { path: path.display().to_string(), source })?;
    let t = text.trim();
    Ok((!t.is_empty()).then(|| t.to_string()))
}

/// Server side: refuses calls without the right token. Every refusal is
/// logged (without the token) and counted: clones share the count, which
/// `/metrics` shows.
#[derive(Clone)]
pub struct ServerAuth {
    expected: Option<Vec<u8>>,
    /// What this check guards, for the log (`client`, `worker`).
    role: &'static str,
    failures: std::sync::Arc<std::sync::atomic::AtomicU64>,
}

/// Why a request was refused by [`ServerAuth::check`]. No message contains a token.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// The request carries no `authorization` header.
    #[error("this coordinator requires a token (PF1E_TOKEN or --token-file)")]
    Missing,
    /// The header does not carry the token.
    #[error("wrong token")]
    Wrong,
}

impl ServerAuth {
    /// Checks `Bearer <token>` when `token` is set; lets everything through otherwise.
    pub fn new(token: Option<&str>) -> Self {
        Self { expected: token.map(|t| t.as_bytes().to_vec()), role: "client", failures: Default::default() }
    }

    /// The same check, naming what it guards in its log lines and sharing
    /// its failure count with `other` (one count per process).
    pub fn for_role(token: Option<&str>, role: &'static str, other: &ServerAuth) -> Self {
        Self { expected: token.map(|t| t.as_bytes().to_vec()), role, failures: other.failures.clone() }
    }

    /// Whether requests must carry a token.
    pub fn required(&self) -> bool {
        self.expected.is_some()
    }

    /// Refusals so far (of this check and of those made [`ServerAuth::for_role`] from it).
    pub fn failures(&self) -> u64 {
        self.failures.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Checks the value of an `authorization` header (gRPC metadata or HTTP):
    /// the scheme `Bearer` in any case (RFC 9110 §11.1), then the token, in
    /// constant time. A refusal is logged and counted.
    pub fn check(&self, authorization: Option<&[u8]>) -> Result<(), Refusal> {
        let Some(expected) = &self.expected else { return Ok(()) };
        let refusal = match authorization {
            Some(v) if bearer(v).is_some_and(|t| same(t, expected)) => return Ok(()),
            Some(_) => Refusal::Wrong,
            None => Refusal::Missing,
        };
        self.failures.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        tracing::warn!(role = self.role, reason = %refusal, "authentication failed");
        Err(refusal)
    }
}

/// The token of a `Bearer <token>` credential, the scheme in any case.
fn bearer(value: &[u8]) -> Option<&[u8]> {
    let space = value.iter().position(|&b| b == b' ')?;
    let (scheme, rest) = value.split_at(space);
    if !scheme.eq_ignore_ascii_case(b"bearer") {
        return None;
    }
    let start = rest.iter().position(|&b| b != b' ')?;
    Some(&rest[start..])
}

/// Compares without an early exit, so timing does not reveal the token.
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

impl tonic::service::Interceptor for ServerAuth {
    fn call(&mut self, req: Request<()>) -> Result<Request<()>, Status> {
        match self.check(req.metadata().get("authorization").map(|v| v.as_bytes())) {
            Ok(()) => Ok(req),
            Err(refusal) => Err(Status::unauthenticated(refusal.to_string())),
        }
    }
}

/// Client side: adds the token to every call.
#[derive(Clone)]
pub struct ClientAuth {
    header: Option<MetadataValue<Ascii>>,
}

impl ClientAuth {
    /// A client interceptor; fails when the token has characters a header cannot carry.
    pub fn new(token: Option<&str>) -> Result<Self, TokenError> {
        let header = match token {
            None => None,
            Some(t) => Some(
                format!("Bearer {t}").parse::<MetadataValue<Ascii>>().map_err(|_| TokenError::NotAscii)?,
            ),
        };
        Ok(Self { header })
    }
}

impl tonic::service::Interceptor for ClientAuth {
    fn call(&mut self, mut req: Request<()>) -> Result<Request<()>, Status> {
        if let Some(h) = &self.header {
            req.metadata_mut().insert("authorization", h.clone());
        }
        Ok(req)
    }
}

impl std::fmt::Debug for ClientAuth {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.header.is_some() { "ClientAuth(<token>)" } else { "ClientAuth(none)" })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tonic::service::Interceptor;

    #[test]
    fn tokens_are_checked() {
        let mut server = ServerAuth::new(Some("s3cret"));
        let mut good = ClientAuth::new(Some("s3cret")).unwrap();
        let mut bad = ClientAuth::new(Some("nope")).unwrap();
        assert!(server.call(good.call(Request::new(())).unwrap()).is_ok());
        let e = server.call(bad.call(Request::new(())).unwrap()).unwrap_err();
        assert_eq!(e.code(), tonic::Code::Unauthenticated);
        assert!(!e.message().contains("s3cret") && !e.message().contains("nope"));
        assert!(server.call(Request::new(())).is_err());
        assert!(ServerAuth::new(None).call(Request::new(())).is_ok());
        assert!(!format!("{good:?}").contains("s3cret"));
        assert!(matches!(ClientAuth::new(Some("two\nlines")), Err(TokenError::NotAscii)));
        // The same check for HTTP headers.
        assert!(server.required() && !ServerAuth::new(None).required());
        assert_eq!(server.check(Some(b"Bearer s3cret")), Ok(()));
        assert_eq!(server.check(Some(b"Bearer s3cre")), Err(Refusal::Wrong));
        assert_eq!(server.check(Some(b"s3cret")), Err(Refusal::Wrong));
        assert_eq!(server.check(None), Err(Refusal::Missing));
        assert_eq!(ServerAuth::new(None).check(None), Ok(()));
    }

    #[test]
    fn the_scheme_is_read_in_any_case_and_refusals_are_counted() {
        let server = ServerAuth::new(Some("s3cret"));
        for ok in [&b"Bearer s3cret"[..], b"bearer s3cret", b"BEARER s3cret", b"Bearer  s3cret"] {
            assert_eq!(server.check(Some(ok)), Ok(()), "{}", String::from_utf8_lossy(ok));
        }
        assert_eq!(server.failures(), 0);
        for bad in [&b"Basic s3cret"[..], b"Bearers3cret", b"Bearer ", b"bearer s3cret2"] {
            assert_eq!(server.check(Some(bad)), Err(Refusal::Wrong), "{}", String::from_utf8_lossy(bad));
        }
        assert_eq!(server.check(None), Err(Refusal::Missing));
        let worker = ServerAuth::for_role(Some("w0rker"), "worker", &server);
        assert_eq!(
            worker.check(Some(b"Bearer s3cret")),
            Err(Refusal::Wrong),
            "the client token is not a worker's"
        );
        assert_eq!(worker.check(Some(b"Bearer w0rker")), Ok(()));
        assert_eq!(server.failures(), 6, "one count for both roles");
    }
}
