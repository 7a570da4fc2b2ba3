//! The TCP listener, with one repair: a request that is not valid HTTP (a garbage request line,
//! raw bytes that are not UTF-8 in the path, headers too large) is refused by hyper itself,
//! before any of our code runs, with an empty 400/414/431 — while the API promises a JSON
//! `{"error": ...}` for every refusal. hyper offers no hook for that answer, so the connection's
//! write side recognises it (a 400, 414 or 431 head with no body and no content type: every
//! answer of our own carries a JSON body) and sends the same status with a JSON body instead.
//! hyper closes the connection after such an answer, so nothing follows it.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};

pub struct JsonErrorListener(pub TcpListener);

impl axum::serve::Listener for JsonErrorListener {
    type Io = JsonErrorStream;
    type Addr = std::net::SocketAddr;

    async fn accept(&mut self) -> (Self::Io, Self::Addr) {
        let (stream, addr) = axum::serve::Listener::accept(&mut self.0).await;
        (JsonErrorStream { inner: stream, pending: Vec::new() }, addr)
    }

    fn local_addr(&self) -> io::Result<Self::Addr> {
        self.0.local_addr()
    }
}

pub struct JsonErrorStream {
    inner: TcpStream,
    /// The replacement answer still to be written.
    pending: Vec<u8>,
}

/// The JSON answer that replaces hyper's empty one, if `head` is one.
fn replacement(head: &[u8]) -> Option<Vec<u8>> {
    let text = std::str::from_utf8(head).ok()?;
    let status = text.strip_prefix("HTTP/1.1 ")?.get(..3)?;
    let message = match status {
        "400" => {
            "malformed HTTP request: the request line or a header is not valid HTTP (bytes that are not UTF-8 in the path, say)"
        }
        "414" => "the request's URI is too long",
        "431" => "the request's headers are too large",
        _ => return None,
    };
    let lower = text.to_ascii_lowercase();
    if !lower.contains("\r\ncontent-length: 0\r\n")
        || lower.contains("\r\ncontent-type:")
        || !lower.ends_with("\r\n\r\n")
    {
        return None;
    }
    let reason = text.lines().next()?.get(13..).unwrap_or("").trim();
    let body = serde_json::json!({ "error": message }).to_string();
    Some(
        format!(
            "HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
            body.len()
        )
        .into_bytes(),
    )
}

impl JsonErrorStream {
    fn drain(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while !self.pending.is_empty() {
            let n = std::task::ready!(Pin::new(&mut self.inner).poll_write(cx, &self.pending))?;
            if n == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            self.pending.drain(..n);
        }
        Poll::Ready(Ok(()))
    }
}

impl AsyncRead for JsonErrorStream {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl AsyncWrite for JsonErrorStream {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        std::task::ready!(self.drain(cx))?;
        if let Some(answer) = replacement(buf) {
            self.pending = answer;
            // The caller's bytes count as written; the replacement goes out in their place.
            let _ = self.drain(cx)?;
            return Poll::Ready(Ok(buf.len()));
        }
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        std::task::ready!(self.drain(cx))?;
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        std::task::ready!(self.drain(cx))?;
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hypers_empty_refusals_get_a_json_body() {
        let head = b"HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-length: 0\r\ndate: Tue, 01 Dec 2026 14:23:20 GMT\r\n\r\n";
        let answer = String::from_utf8(replacement(head).unwrap()).unwrap();
        assert!(
            answer.starts_with("HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\n"),
            "{answer}"
        );
        let body = answer.split("\r\n\r\n").nth(1).unwrap();
        let value: serde_json::Value = serde_json::from_str(body).unwrap();
        assert!(value["error"].as_str().unwrap().contains("malformed HTTP request"));
        assert!(answer.contains(&format!("content-length: {}\r\n", body.len())));
    }

    #[test]
    fn our_own_answers_pass_unchanged() {
        let ours =
            b"HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\ncontent-length: 12\r\n\r\n";
        assert!(replacement(ours).is_none());
        assert!(replacement(b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n").is_none());
        assert!(replacement(b"{\"error\": \"HTTP/1.1 400 \"}").is_none());
    }
}
