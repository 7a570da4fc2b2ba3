//! Checks every request before it reaches a handler, against what a page on another site could
//! make a visitor's browser send:
//! - **Host**: only the names the server was started for are answered, so a hostile DNS name
//!   that re-points to 127.0.0.1 (DNS rebinding) gets nothing;
//! - **Origin**: a request that changes something, and every WebSocket, must come from the
//!   server's own pages (or from a client that is not a browser, which sends no Origin);
//! - **Content-Type**: a POST must say `application/json`, which a cross-site form or a
//!   `no-cors` fetch cannot send without a CORS preflight, which this server never grants.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{HeaderMap, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::model::ApiError;

/// The host names requests may be addressed to.
#[derive(Clone, Debug)]
pub struct HostPolicy {
    any: bool,
    /// Listening on every interface: any IP literal reaches the server legitimately (rebinding
    /// needs a name).
    any_ip: bool,
    names: Vec<String>,
}

impl HostPolicy {
    /// The loopback names, the listening address and the name it was given as, and `extra`
    /// (`*` in it allows every name).
    pub fn new(listening: Option<SocketAddr>, given_host: Option<&str>, extra: &[String]) -> HostPolicy {
        let mut names: Vec<String> =
            ["localhost", "127.0.0.1", "::1"].iter().map(|s| s.to_string()).collect();
        if let Some(addr) = listening {
            names.push(addr.ip().to_string());
        }
        names.extend(given_host.map(normalise));
        names.extend(extra.iter().map(|h| normalise(h)));
        HostPolicy {
            any: extra.iter().any(|h| h == "*"),
            any_ip: listening.is_some_and(|a| a.ip().is_unspecified()),
            names,
        }
    }

    pub fn allows(&self, host: &str) -> bool {
        let host = normalise(host);
        self.any || self.names.contains(&host) || (self.any_ip && host.parse::<IpAddr>().is_ok())
    }
}

/// A Host value without its port and brackets, in lower case.
fn normalise(host: &str) -> String {
    let host = host.trim().to_ascii_lowercase();
    let name = match host.strip_prefix('[') {
        Some(rest) => rest.split(']').next().unwrap_or(""),
        None if host.matches(':').count() == 1 => host.split(':').next().unwrap_or(""),
        None => &host,
    };
    name.trim_end_matches('.').to_string()
}

fn refuse(status: StatusCode, message: String) -> Response {
    ApiError::new(status, message).into_response()
}

/// What is wrong with a request's origin, if anything.
fn cross_origin(headers: &HeaderMap) -> Option<String> {
    if headers.get("sec-fetch-site").is_some_and(|v| v.as_bytes() == b"cross-site") {
        return Some("a request from another site's page is refused".into());
    }
    let origin = headers.get(header::ORIGIN)?;
    let origin = origin.to_str().unwrap_or("");
    let authority = origin.split_once("://").map(|(_, rest)| rest);
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
    match (authority, host) {
        (Some(a), Some(h)) if a.eq_ignore_ascii_case(h) => None,
        _ => Some(format!(
            "a request from origin '{origin}' is refused: only this server's own pages may change games"
        )),
    }
}

pub async fn check(State(policy): State<Arc<HostPolicy>>, request: Request, next: Next) -> Response {
    let headers = request.headers();
    if let Some(host) = headers.get(header::HOST) {
        let host = host.to_str().unwrap_or("");
        if !policy.allows(host) {
            return refuse(
                StatusCode::FORBIDDEN,
                format!(
                    "this server does not answer to the host name '{host}' (ply serve --allow-host adds names)"
                ),
            );
        }
    }
    let method = request.method();
    let changes = !matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS);
    let websocket =
        headers.get(header::UPGRADE).is_some_and(|v| v.as_bytes().eq_ignore_ascii_case(b"websocket"));
    if (changes || websocket)
        && let Some(problem) = cross_origin(headers)
    {
        return refuse(StatusCode::FORBIDDEN, problem);
    }
    if *method == Method::POST {
        let json = headers
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.split(';').next())
            .is_some_and(|v| v.trim().eq_ignore_ascii_case("application/json"));
        if !json {
            return refuse(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "a POST body must be JSON, sent with Content-Type: application/json".into(),
            );
        }
    }
    next.run(request).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_names_and_the_given_host_are_allowed_others_not() {
        let addr: SocketAddr = "127.0.0.1:8080".parse().unwrap();
        let policy = HostPolicy::new(Some(addr), Some("ply.lan"), &[]);
        for host in
            ["localhost:8080", "127.0.0.1:8080", "[::1]:8080", "LOCALHOST", "ply.lan:8080", "localhost."]
        {
            assert!(policy.allows(host), "{host}");
        }
        for host in ["evil.example", "evil.example:8080", "10.0.0.1:8080", "localhost.evil.example"] {
            assert!(!policy.allows(host), "{host}");
        }
    }

    #[test]
    fn every_interface_allows_ip_literals_but_not_names() {
        let policy = HostPolicy::new(Some("0.0.0.0:9000".parse().unwrap()), None, &[]);
        assert!(policy.allows("192.168.1.20:9000") && policy.allows("[fe80::1]:9000"));
        assert!(!policy.allows("evil.example:9000"));
        assert!(HostPolicy::new(None, None, &["*".into()]).allows("anything.example"));
        assert!(HostPolicy::new(None, None, &["Ply.Example".into()]).allows("ply.example:80"));
    }
}
