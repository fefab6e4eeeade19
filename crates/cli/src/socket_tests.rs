//! `longpole open --native`'s WebSocket checked with tungstenite's client
//! over TCP against a real server: refused (403) without the page's
//! origin and token, and answering what the worker's code answers for the
//! same file analysed here, which is what ya computed of it.

use super::*;
use crate::open::OpenServer;
use longpole_answer::protocol::{CompareSettings, Export, Finished};
use longpole_answer::sink::{Item, Kept};
use longpole_answer::{Loaded, Session};
use longpole_core::export::run::Target;
use longpole_core::ingest::read_bytes;
use longpole_core::{reconcile, Analysis};
use std::net::TcpStream;
use std::path::PathBuf;
use std::time::Duration;
use tungstenite::client::IntoClientRequest;
use tungstenite::handshake::HandshakeError;

/// A distbuild sample of the repository's `tests/data/distbuild/`.
fn sample(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/distbuild").join(name)
}

/// `name`'s analysis, made here from its bytes.
fn analysis(name: &str) -> Analysis {
    let bytes = std::fs::read(sample(name)).unwrap();
    reconcile(vec![read_bytes(name, &bytes, 1 << 20).unwrap()])
}

/// A native server started on `files` (and `vs`), running in a thread of
/// its own: its address, its link's token and the link.
struct Started {
    addr: String,
    token: String,
    link: String,
}

impl Started {
    fn origin(&self) -> String {
        format!("http://{}", self.addr)
    }
}

fn start(files: &[PathBuf], vs: &[PathBuf]) -> Started {
    let server = OpenServer::start(files, vs, None, 0, Some(2)).unwrap();
    let link = server.link().to_owned();
    let (base, fragment) = link.split_once('#').unwrap();
    let addr = base.strip_prefix("http://").unwrap().trim_end_matches('/').to_owned();
    let token = fragment.split('&').find_map(|p| p.strip_prefix("token=")).unwrap().to_owned();
    std::thread::spawn(move || server.run(Duration::from_secs(600), false));
    Started { addr, token, link }
}

/// Opens the socket at `addr` with these `Origin` and subprotocol headers;
/// the HTTP status of a refusal otherwise.
fn connect(addr: &str, origin: Option<&str>, protocol: Option<&str>) -> Result<Socket, u16> {
    let mut request = format!("ws://{addr}/{PATH}").into_client_request().unwrap();
    let headers = request.headers_mut();
    if let Some(origin) = origin {
        headers.insert("Origin", origin.parse().unwrap());
    }
    if let Some(protocol) = protocol {
        headers.insert("Sec-WebSocket-Protocol", protocol.parse().unwrap());
    }
    let stream: Box<dyn ReadWrite + Send> = Box::new(TcpStream::connect(addr).unwrap());
    match tungstenite::client::client(request, stream) {
        Ok((socket, _)) => Ok(socket),
        Err(HandshakeError::Failure(tungstenite::Error::Http(response))) => Err(response.status().as_u16()),
        Err(e) => panic!("the handshake failed otherwise: {e}"),
    }
}

/// The page's socket to `s`.
fn page(s: &Started) -> Socket {
    connect(&s.addr, Some(&s.origin()), Some(&format!("{PROTOCOL}{}", s.token))).unwrap()
}

/// Sends `request` and gives the next text frame that is not a progress
/// message (those come while the server's files are still being read).
fn ask(socket: &mut Socket, request: &Request) -> String {
    socket.send(Message::text(request.to_json().unwrap())).unwrap();
    loop {
        let text = next_text(socket);
        if !text.starts_with("{\"type\":\"Progress\"") {
            return text;
        }
    }
}

fn next_text(socket: &mut Socket) -> String {
    match socket.read().unwrap() {
        Message::Text(text) => text.as_str().to_owned(),
        other => panic!("a text frame was expected: {other:?}"),
    }
}

#[test]
fn the_socket_is_refused_without_the_page_s_origin_and_its_token() {
    let s = start(&[sample("example.log")], &[]);
    assert!(s.link.ends_with("&native=1") && !s.link.contains("sha256="), "{}", s.link);
    let right = format!("{PROTOCOL}{}", s.token);
    let other = format!("{PROTOCOL}{}", token::random().unwrap());
    let localhost = format!("http://localhost:{}", s.addr.rsplit(':').next().unwrap());
    let refused = [
        (Some("http://evil.example"), Some(right.as_str())),
        (Some("http://evil.example"), None),
        (Some(localhost.as_str()), Some(right.as_str())),
        (None, Some(right.as_str())),
        (Some(&s.origin()[..]), Some(other.as_str())),
        (Some(&s.origin()[..]), Some(&right[..right.len() - 1])),
        (Some(&s.origin()[..]), Some(s.token.as_str())),
        (Some(&s.origin()[..]), None),
    ];
    for (origin, protocol) in refused {
        assert_eq!(connect(&s.addr, origin, protocol).err(), Some(403), "{origin:?} {protocol:?}");
    }
    // The page's own offer, among others, is taken.
    let offers = format!("chat, {right}");
    assert!(connect(&s.addr, Some(&s.origin()), Some(&offers)).is_ok());
}

#[test]
fn two_servers_do_not_accept_each_other_s_tokens() {
    let (one, two) = (start(&[sample("example.log")], &[]), start(&[sample("edge.log")], &[]));
    assert_ne!(one.token, two.token);
    let two_s = format!("{PROTOCOL}{}", two.token);
    assert_eq!(connect(&one.addr, Some(&one.origin()), Some(&two_s)).err(), Some(403));
    assert_eq!(connect(&one.addr, Some(&two.origin()), Some(&two_s)).err(), Some(403));
    assert!(connect(&two.addr, Some(&two.origin()), Some(&two_s)).is_ok());
}

#[test]
fn the_socket_answers_what_the_worker_answers_and_ya_computed() {
    let s = start(&[sample("example.log")], &[]);
    let mut socket = page(&s);
    // The page asks for the inputs its link names; the server's files are read.
    let done = ask(&mut socket, &Request::AnalyzeUrls { run: 3, sources: Vec::new(), memory_limit: None });
    let Ok(Response::Done(Finished { run: 3, summary, view: Some(view), bars, .. })) = serde_json::from_str(&done)
    else {
        panic!("{done}")
    };
    // ya's own critical path of this log (example.ya-result.txt).
    let path = &view.critical_path;
    assert_eq!(path.total, 3505 * 1_000_000);
    let steps: Vec<(&str, &str)> = path.steps.iter().map(|t| (t.kind.as_str(), t.uid.as_str())).collect();
    assert_eq!(steps, [("prepare", "repository:$(SOURCE_ROOT)"), ("run", "A"), ("copy", "A"), ("run", "C")]);
    // What the worker's code sends of the same file read here.
    let here = Loaded::of(3, analysis("example.log"));
    let Response::Done(Finished { summary: s2, view: v2, bars: b2, .. }) = here.done(0.0, 0) else { unreachable!() };
    assert_eq!((summary, Some(view), bars), (s2, v2, b2));
    let mut session = Session { loaded: Some(here), compared: None };
    let asked = [
        Request::ReportText { run: 3 },
        Request::Details { run: 3, task: 1 },
        Request::Levers { run: 3 },
        Request::Graph { run: 3, unfold: Vec::new(), chain: true, export: false },
    ];
    for request in asked {
        let mut kept = Kept::default();
        session.answer(request.clone(), &|| 0.0, &mut kept);
        let [Item::Message(expected)] = kept.items.as_slice() else { panic!("{kept:?}") };
        assert_eq!(ask(&mut socket, &request), expected.to_json().unwrap(), "{request:?}");
    }
    // A made file: a header, then its bytes.
    let export = Request::Export { run: 3, what: Export::Run(Target::Chrome) };
    let header: serde_json::Value = serde_json::from_str(&ask(&mut socket, &export)).unwrap();
    assert_eq!(
        header,
        serde_json::json!({"type": "File", "run": 3, "name": "example.log.trace.json", "mime": "application/json"})
    );
    let Ok(Message::Binary(bytes)) = socket.read() else { panic!("the file's bytes were expected") };
    let mut kept = Kept::default();
    session.answer(export, &|| 0.0, &mut kept);
    assert_eq!(kept.items, [Item::File(3, "example.log.trace.json".into(), "application/json".into(), bytes.to_vec())]);
    // The page loaded again asks under a run of its own: the same run, renumbered.
    let again = ask(&mut socket, &Request::AnalyzeUrls { run: 1, sources: Vec::new(), memory_limit: None });
    assert!(matches!(serde_json::from_str(&again), Ok(Response::Done(Finished { run: 1, .. }))), "{again}");
    // Files the page holds cannot come over the socket: it says so, and the run stays.
    let dropped = ask(&mut socket, &Request::Analyze { run: 2, memory_limit: None });
    assert!(matches!(serde_json::from_str(&dropped), Ok(Response::Failed { run: 2, .. })), "{dropped}");
    assert!(ask(&mut socket, &Request::ReportText { run: 1 }).contains("ReportText"));
    // A request that is not one is said to be so.
    socket.send(Message::text("{\"type\":\"Nonsense\"}")).unwrap();
    assert!(next_text(&mut socket).contains("could not read the page's request"));
}

#[test]
fn a_comparison_is_answered_as_the_worker_compares() {
    let s = start(&[sample("example.log")], &[sample("edge.log")]);
    let mut socket = page(&s);
    let settings = CompareSettings::default();
    let request = Request::CompareFiles { run: 2, a_files: Some(1), settings: settings.clone(), memory_limit: None };
    let compared = ask(&mut socket, &request);
    let Ok(Response::Compared { run: 2, view, .. }) = serde_json::from_str(&compared) else { panic!("{compared}") };
    // ya's wall times of both logs (total_time_elapsed).
    assert_eq!((view.wall_a_ms, view.wall_b_ms), (4730.0, 4730.0));
    let mut session = Session::default();
    let mut kept = Kept::default();
    session.compare(2, (Some(analysis("example.log")), analysis("edge.log")), settings, &|| 0.0, &mut kept);
    let Some(Item::Message(Response::Compared { view: expected, .. })) = kept.items.first() else { panic!() };
    assert_eq!(&view, expected);
    // Then the timelines' first window, as the worker sends it.
    let Some(Item::Message(window)) = kept.items.get(1) else { panic!("{kept:?}") };
    assert_eq!(next_text(&mut socket), window.to_json().unwrap());
}

#[test]
fn a_file_that_cannot_be_read_fails_the_page_s_run() {
    let dir = std::env::temp_dir().join(format!("longpole-socket-test-{}", token::random().unwrap()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("nothing.log");
    std::fs::write(&file, "\u{0}\u{1} no known format\n").unwrap();
    let s = start(&[file], &[]);
    let answer = ask(&mut page(&s), &Request::AnalyzeUrls { run: 4, sources: Vec::new(), memory_limit: None });
    let Ok(Response::Failed { run: 4, message }) = serde_json::from_str(&answer) else { panic!("{answer}") };
    assert!(message.contains("nothing.log"), "{message}");
}

#[test]
fn the_server_stays_while_the_page_holds_its_socket_open() {
    let server = OpenServer::start(&[sample("example.log")], &[], None, 0, Some(1)).unwrap();
    let link = server.link().to_owned();
    let addr = link.strip_prefix("http://").unwrap().split('/').next().unwrap().to_owned();
    let token = link.split("token=").nth(1).unwrap()[..32].to_owned();
    let (tx, stopped) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        server.run(Duration::from_millis(300), false).unwrap();
        let _ = tx.send(());
    });
    let s = Started { addr, token, link };
    let mut socket = page(&s);
    let done = ask(&mut socket, &Request::AnalyzeUrls { run: 1, sources: Vec::new(), memory_limit: None });
    assert!(done.contains("\"Done\""), "{done}");
    // Silent, but with its socket open: the page is there.
    assert!(stopped.recv_timeout(Duration::from_secs(2)).is_err(), "the server stopped under an open page");
    socket.close(None).unwrap();
    while socket.read().is_ok() {}
    assert_eq!(stopped.recv_timeout(Duration::from_secs(30)), Ok(()));
}

#[test]
fn a_page_waiting_for_a_big_file_hears_how_far_its_reading_has_come() {
    let dir = std::env::temp_dir().join(format!("longpole-socket-test-{}", token::random().unwrap()));
    std::fs::create_dir_all(&dir).unwrap();
    let cfg = longpole_distbuild_sim::Config { nodes: 20_000, hosts: 200, ..Default::default() };
    let mut log = Vec::new();
    longpole_distbuild_sim::simulate(&cfg, &longpole_distbuild_sim::graph(&cfg), &mut log).unwrap();
    let file = dir.join("big.log");
    std::fs::write(&file, &log).unwrap();
    let s = start(&[file], &[]);
    let mut socket = page(&s);
    let request = Request::AnalyzeUrls { run: 5, sources: Vec::new(), memory_limit: None };
    socket.send(Message::text(request.to_json().unwrap())).unwrap();
    let mut heard = Vec::new();
    let done = loop {
        match serde_json::from_str(&next_text(&mut socket)).unwrap() {
            Response::Progress(p) => heard.push(p),
            other => break other,
        }
    };
    assert!(matches!(done, Response::Done(Finished { run: 5, .. })), "{done:?}");
    // Read in a debug build, these megabytes take longer than one message's interval.
    assert!(!heard.is_empty(), "no progress while {} bytes were read", log.len());
    for p in &heard {
        assert_eq!((p.run, p.name.as_str(), p.bytes_total), (5, "big.log", Some(log.len() as u64)));
        assert!(p.bytes_done <= log.len() as u64);
    }
    assert!(heard.windows(2).all(|w| w[0].bytes_done <= w[1].bytes_done && w[0].elapsed_ms <= w[1].elapsed_ms));
    std::fs::remove_dir_all(&dir).unwrap();
}
