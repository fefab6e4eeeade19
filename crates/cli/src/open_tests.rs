//! `longpole open`'s server checked with real requests over TCP: the
//! token, the files named and nothing else, no CORS, the Host check, two
//! servers apart, and the stop once the page is gone.

use super::*;
use std::io::Write;
use std::net::TcpStream;
use std::sync::mpsc;

/// A folder of its own under the system's temp folder.
fn folder() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("longpole-open-test-{}", token::random().unwrap()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A started server in a thread of its own, and what its link says.
struct Running {
    addr: String,
    token: String,
    /// The link's `src` values, then its `vs` values (decoded).
    src: Vec<String>,
    vs: Vec<String>,
    sha256: Vec<String>,
    stopped: mpsc::Receiver<()>,
}

fn start(files: &[PathBuf], vs: &[PathBuf], linger: Duration) -> Running {
    let server = OpenServer::start(files, vs, None, 0, None).unwrap();
    let link = server.link().to_owned();
    let (base, fragment) = link.split_once('#').unwrap();
    let addr = base.strip_prefix("http://").unwrap().trim_end_matches('/').to_owned();
    let mut r =
        Running { addr, token: String::new(), src: vec![], vs: vec![], sha256: vec![], stopped: mpsc::channel().1 };
    for part in fragment.split('&') {
        let (key, value) = part.split_once('=').unwrap();
        let value = http::decode(value).unwrap();
        match key {
            "src" => r.src.push(value),
            "vs" => r.vs.push(value),
            "sha256" | "vs_sha256" => r.sha256.push(value),
            "token" => r.token = value,
            other => panic!("unexpected key {other} in {link}"),
        }
    }
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        server.run(linger, false).unwrap();
        let _ = tx.send(());
    });
    r.stopped = rx;
    r
}

/// Sends `method path` with `headers` (and a Host of `host`, default the
/// server's own) and gives the status, the headers (lowercase) and the body.
fn ask(addr: &str, method: &str, path: &str, headers: &[(&str, &str)], host: Option<&str>) -> (u16, String, Vec<u8>) {
    let mut stream = TcpStream::connect(addr).unwrap();
    let mut text = format!("{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n", host.unwrap_or(addr));
    for (k, v) in headers {
        text.push_str(&format!("{k}: {v}\r\n"));
    }
    text.push_str("\r\n");
    stream.write_all(text.as_bytes()).unwrap();
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).unwrap();
    let end = answer.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
    let head = String::from_utf8(answer[..end].to_vec()).unwrap().to_ascii_lowercase();
    let status = head.split(' ').nth(1).unwrap().parse().unwrap();
    (status, head, answer[end + 4..].to_vec())
}

fn get(r: &Running, path: &str, token: Option<&str>) -> (u16, String, Vec<u8>) {
    let headers: Vec<(&str, &str)> = token.map(|t| (TOKEN_HEADER, t)).into_iter().collect();
    ask(&r.addr, "GET", path, &headers, None)
}

#[test]
fn the_named_files_are_served_with_the_token_and_their_digest_in_the_link() {
    let dir = folder();
    let (a, b) = (dir.join("a b&c.log"), dir.join("graph.json"));
    std::fs::write(&a, "abc").unwrap();
    std::fs::write(&b, "").unwrap();
    let r = start(&[a.clone(), b], &[], Duration::from_secs(600));
    // The digests of "abc" and of nothing, as FIPS 180-2 gives them.
    assert_eq!(
        r.sha256,
        [
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        ]
    );
    assert_eq!(r.src.len(), 2);
    assert!(r.src[0].starts_with("_longpole/f/") && r.src[0].ends_with("/a%20b%26c.log"), "{}", r.src[0]);
    let (status, head, body) = get(&r, &format!("/{}", r.src[0]), Some(&r.token));
    assert_eq!((status, body.as_slice()), (200, &b"abc"[..]));
    assert!(head.contains("content-length: 3"), "{head}");
    assert!(!head.contains("access-control-allow-origin"), "{head}");
    // The ping answers with the token only.
    assert_eq!(get(&r, "/_longpole/ping", Some(&r.token)).0, 204);
    assert_eq!(get(&r, "/_longpole/ping", None).0, 403);
}

#[test]
fn without_the_right_token_nothing_is_read() {
    let dir = folder();
    let a = dir.join("a.log");
    std::fs::write(&a, "secret").unwrap();
    let r = start(&[a], &[], Duration::from_secs(600));
    let path = format!("/{}", r.src[0]);
    assert_eq!(get(&r, &path, None).0, 403);
    assert_eq!(get(&r, &path, Some(&token::random().unwrap())).0, 403);
    assert_eq!(get(&r, &path, Some(&r.token[..31])).0, 403);
    assert_eq!(get(&r, &path, Some(&r.token.to_uppercase())).0, 403);
    // A preflight from a page of another origin gets no CORS answer.
    let preflight = [("Origin", "http://evil.example"), ("Access-Control-Request-Headers", "x-longpole-token")];
    let (status, head, _) = ask(&r.addr, "OPTIONS", &path, &preflight, None);
    assert_eq!(status, 403);
    assert!(!head.contains("access-control-"), "{head}");
    // A name that resolves to the loopback address (DNS rebinding) is refused, token or not.
    let evil = format!("evil.example:{}", r.addr.rsplit(':').next().unwrap());
    let (status, _, body) = ask(&r.addr, "GET", &path, &[(TOKEN_HEADER, &r.token)], Some(&evil));
    assert_eq!(status, 403);
    assert!(!String::from_utf8_lossy(&body).contains("secret"));
}

#[test]
fn no_path_leads_outside_the_files_named() {
    let dir = folder();
    let (a, other) = (dir.join("a.log"), dir.join("other.log"));
    std::fs::write(&a, "named").unwrap();
    std::fs::write(&other, "not named").unwrap();
    let r = start(&[a], &[], Duration::from_secs(600));
    let id_folder = r.src[0].rsplit_once('/').unwrap().0.to_owned();
    let tries = [
        format!("/{id_folder}/other.log"),
        format!("/{id_folder}/../{}", r.src[0].rsplit('/').next().unwrap()),
        format!("/{id_folder}/%2e%2e/%2e%2e/%2e%2e/etc/passwd"),
        format!("/{id_folder}/"),
        "/_longpole/f/".into(),
        "/_longpole/f/../../../../etc/passwd".into(),
        "/..%2f..%2f..%2fetc%2fpasswd".into(),
        format!("/{}", other.display()),
        format!("/{id_folder}%2f..%2fother.log"),
    ];
    for path in tries {
        let (status, _, body) = get(&r, &path, Some(&r.token));
        assert!(status == 403 || status == 404, "{path}: {status}");
        let body = String::from_utf8_lossy(&body);
        assert!(!body.contains("not named") && !body.contains("root:"), "{path}: {body}");
    }
}

#[test]
fn two_servers_do_not_see_each_other_s_files() {
    let dir = folder();
    let (a, b) = (dir.join("a.log"), dir.join("b.log"));
    std::fs::write(&a, "A").unwrap();
    std::fs::write(&b, "B").unwrap();
    let (one, two) = (start(&[a], &[], Duration::from_secs(600)), start(&[b], &[], Duration::from_secs(600)));
    assert_ne!(one.token, two.token);
    assert_eq!(get(&one, &format!("/{}", one.src[0]), Some(&one.token)).2, b"A");
    // Another server's file, with this server's token or the other's.
    assert_eq!(get(&one, &format!("/{}", two.src[0]), Some(&one.token)).0, 404);
    assert_eq!(get(&one, &format!("/{}", two.src[0]), Some(&two.token)).0, 403);
    assert_eq!(get(&two, &format!("/{}", one.src[0]), Some(&two.token)).0, 404);
}

#[test]
fn a_comparison_names_both_sides_and_the_server_stops_once_the_page_is_gone() {
    let dir = folder();
    let (a, b) = (dir.join("before.log"), dir.join("after.log"));
    std::fs::write(&a, "A").unwrap();
    std::fs::write(&b, "B").unwrap();
    let r = start(&[a], &[b], Duration::from_secs(1));
    assert_eq!((r.src.len(), r.vs.len(), r.sha256.len()), (1, 1, 2));
    assert_eq!(get(&r, &format!("/{}", r.vs[0]), Some(&r.token)).2, b"B");
    // Until the page is heard from, the server waits; the requests above
    // were the page's, so it stops a second after them.
    assert_eq!(r.stopped.recv_timeout(Duration::from_secs(60)), Ok(()));
    assert!(TcpStream::connect(&r.addr).is_err() || get_fails(&r));
}

/// Whether a request to a stopped server gets no answer.
fn get_fails(r: &Running) -> bool {
    let Ok(mut s) = TcpStream::connect(&r.addr) else { return true };
    let _ = s.write_all(b"GET / HTTP/1.1\r\nConnection: close\r\n\r\n");
    let mut answer = Vec::new();
    s.read_to_end(&mut answer).map_or(true, |_| answer.is_empty())
}

#[test]
fn a_server_not_yet_heard_from_waits_for_its_page() {
    let dir = folder();
    let a = dir.join("a.log");
    std::fs::write(&a, "A").unwrap();
    let r = start(&[a], &[], Duration::from_millis(300));
    // A request without the token is not the page.
    assert_eq!(get(&r, "/_longpole/ping", None).0, 403);
    assert!(r.stopped.recv_timeout(Duration::from_secs(2)).is_err(), "it waits for the page's first word");
    assert_eq!(get(&r, "/_longpole/ping", Some(&r.token)).0, 204);
    assert_eq!(r.stopped.recv_timeout(Duration::from_secs(60)), Ok(()));
}
