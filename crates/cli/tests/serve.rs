//! `ply serve` as a process on a real socket: what only a real listener shows — host names to
//! bind, a second server on the same data, requests that are not HTTP, clients that hang up.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

struct Server {
    child: Child,
    addr: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn serve(addr: &str, data: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_ply"));
    command.args(["serve", "--addr", addr, "--data"]).arg(data);
    command.stdout(Stdio::piped()).stderr(Stdio::piped());
    command
}

/// Starts a server and reads the address it listens on.
fn start(addr: &str, data: &Path) -> Server {
    let mut child = serve(addr, data).spawn().unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let addr = line
        .split("listening on http://")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .to_string();
    Server { child, addr }
}

/// Sends raw bytes, returns the status and the body as JSON.
fn raw(addr: &str, request: &[u8]) -> (u16, Value) {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream.write_all(request).unwrap();
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).unwrap();
    let text = String::from_utf8_lossy(&answer);
    let status = text.get(9..12).and_then(|s| s.parse().ok()).unwrap_or_else(|| panic!("{text}"));
    let body = text.split("\r\n\r\n").nth(1).unwrap_or("");
    (status, serde_json::from_str(body).unwrap_or_else(|_| panic!("not JSON: {text}")))
}

fn request(addr: &str, method: &str, path: &str, body: &Value, token: Option<&str>) -> (u16, Value) {
    let body = body.to_string();
    let auth = token.map(|t| format!("Authorization: Bearer {t}\r\n")).unwrap_or_default();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n{auth}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    raw(addr, head.as_bytes())
}

#[test]
fn a_host_name_binds_and_a_second_server_on_the_same_data_is_refused() {
    let data = tempfile::tempdir().unwrap();
    let first = start("localhost:0", data.path());
    let (status, created) = request(
        &first.addr,
        "POST",
        "/api/games",
        &json!({"game": "connect4", "sides": [{"kind": "human"}, {"kind": "human"}]}),
        None,
    );
    assert_eq!(status, 201, "{created}");

    let out = serve("127.0.0.1:0", data.path()).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains(&data.path().display().to_string()) && err.contains("in use by ply serve (pid"),
        "{err}"
    );
    assert!(err.contains(&first.addr), "the message says where the other server listens: {err}");

    let (status, view) =
        request(&first.addr, "GET", &format!("/api/games/{}", created["id"]), &json!({}), None);
    assert_eq!((status, view["status"].as_str()), (200, Some("playing")), "the first server goes on: {view}");
}

#[test]
fn a_data_path_that_is_a_file_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("not-a-dir");
    std::fs::write(&file, "x").unwrap();
    let out = serve("127.0.0.1:0", &file).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(err.contains(&file.display().to_string()) && err.contains("not a directory"), "{err}");
    let out = serve("no-port-here", dir.path()).output().unwrap();
    assert!(String::from_utf8_lossy(&out.stderr).contains("is not HOST:PORT"));
}

#[test]
fn requests_that_are_not_http_get_json_errors() {
    let data = tempfile::tempdir().unwrap();
    let server = start("127.0.0.1:0", data.path());
    for garbage in [&b"GARBAGE\r\n\r\n"[..], b"GET /api/games/\xff HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"] {
        let (status, body) = raw(&server.addr, garbage);
        assert_eq!(status, 400);
        assert!(body["error"].as_str().unwrap().contains("malformed HTTP request"), "{body}");
    }
    let (status, body) =
        raw(&server.addr, b"GET /api/games/%FF HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    assert_eq!(status, 400, "{body}");
}

#[test]
fn a_hint_stops_when_its_client_hangs_up() {
    let data = tempfile::tempdir().unwrap();
    let server = start("127.0.0.1:0", data.path());
    let sides = json!([{"kind": "human"}, {"kind": "human"}]);
    let (_, created) =
        request(&server.addr, "POST", "/api/games", &json!({"game": "connect4", "sides": sides}), None);
    let token = created["tokens"]["seats"][0].as_str().unwrap().to_string();
    let searches =
        || request(&server.addr, "GET", "/api/status", &json!({}), None).1["searches"].as_u64().unwrap();

    let body = json!({"agent": "mcts:iters=1000000000000", "time_ms": 10000}).to_string();
    let mut client = TcpStream::connect(&server.addr).unwrap();
    write!(
        client,
        "POST /api/games/{}/hint HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nAuthorization: Bearer {token}\r\nContent-Length: {}\r\n\r\n{body}",
        created["id"],
        server.addr,
        body.len()
    )
    .unwrap();
    let started = Instant::now();
    while searches() == 0 && started.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(searches(), 1, "the hint is searching");
    drop(client);
    let hung_up = Instant::now();
    while searches() > 0 && hung_up.elapsed() < Duration::from_secs(5) {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(searches(), 0, "the search stopped when its client went away, not after its 10 s");
}
