//! `longpole open`: a loopback server for one page. It serves the app
//! ([`crate::bundle`]) and only the files named on the command line, each
//! under a random path, to requests that carry the run's random 128-bit
//! token in the header `X-Longpole-Token`; the token reaches the page in
//! the link's fragment (`#…&token=`), which a browser never sends to a
//! server. The link loads the files (`#src=`, with their SHA-256; `vs=`
//! for side B of a comparison). The page pings `/_longpole/ping` with the
//! token while it is open; the server stops once it has heard nothing for
//! a while. No answer carries a CORS header, so no page of another origin
//! reads anything, and a request whose `Host` is not the loopback address
//! it was sent to (DNS rebinding) is refused. With `--native`, the files
//! are also read and analysed here ([`crate::native`]) and the link says
//! `native=1`: the page may then ask over a WebSocket ([`crate::socket`]).

use crate::native::Native;
use crate::{http, socket, token};
use anyhow::{Context, Result};
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::io::Read;
use std::net::{IpAddr, SocketAddr};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};
use tiny_http::{Method, Request, Response, Server};

/// The header the page sends the token in (the app's `TOKEN_HEADER`).
pub const TOKEN_HEADER: &str = "X-Longpole-Token";
/// The path the page pings.
const PING: &str = "_longpole/ping";
/// Where the named files are served: `_longpole/f/<random>/<name>`.
const FILES: &str = "_longpole/f/";

/// What a running server knows.
struct State {
    /// The run's secret.
    token: String,
    /// The files served, by their path (percent-decoded, without the leading `/`).
    files: HashMap<String, PathBuf>,
    /// The `Host` values accepted (None: any, for a server bound with `--bind`).
    hosts: Option<Vec<String>>,
    /// When the page last asked for anything with the token.
    last_seen: Mutex<Option<Instant>>,
    /// The page's origin, the only one the socket answers.
    origin: String,
    /// The files read and analysed here, with `--native`.
    native: Option<Arc<Native>>,
    /// Sockets the page holds open: the page is there while one is.
    sockets: AtomicUsize,
}

impl State {
    fn seen(&self) {
        *self.last_seen.lock().unwrap_or_else(PoisonError::into_inner) = Some(Instant::now());
    }
}

/// A `longpole open` server, listening, with the link to its page.
pub struct OpenServer {
    server: Server,
    state: Arc<State>,
    link: String,
}

impl OpenServer {
    /// Listens on `bind` (loopback when None) and `port` (0: a free one) for
    /// `files` (side A's when `vs` is not empty) and `vs` (side B's), each
    /// read once for its SHA-256; with `native` (a thread count), they are
    /// read and analysed here instead, from now on, on that many threads
    /// (and the link has no digests: the page does not fetch them).
    pub fn start(
        files: &[PathBuf],
        vs: &[PathBuf],
        bind: Option<IpAddr>,
        port: u16,
        native: Option<usize>,
    ) -> Result<OpenServer> {
        let (server, addr) = http::listen(bind, port)?;
        let token = token::random()?;
        let base = http::base_url(addr);
        let mut state = State {
            token: token.clone(),
            files: HashMap::new(),
            hosts: bind.is_none().then(|| accepted_hosts(addr)),
            last_seen: Mutex::new(None),
            origin: base.trim_end_matches('/').to_owned(),
            native: native.map(|threads| Native::start(files.to_vec(), vs.to_vec(), threads)),
            sockets: AtomicUsize::new(0),
        };
        let mut link = Vec::new();
        for (paths, key, digest_key) in [(files, "src", "sha256"), (vs, "vs", "vs_sha256")] {
            let mut digests = Vec::new();
            for path in paths {
                let name = path.file_name().map_or_else(|| "input".into(), |n| n.to_string_lossy().into_owned());
                let id = token::random()?;
                // The URL's path, whose last part the page names the input by.
                let url = format!("{FILES}{id}/{}", http::encode(&name));
                link.push(format!("{key}={}", http::encode(&url)));
                if native.is_none() {
                    digests.push(format!("{digest_key}={}", sha256(path)?));
                }
                state.files.insert(format!("{FILES}{id}/{name}"), path.clone());
            }
            link.extend(digests);
        }
        link.push(format!("token={token}"));
        if native.is_some() {
            link.push("native=1".to_owned());
        }
        let link = format!("{base}#{}", link.join("&"));
        Ok(OpenServer { server, state: Arc::new(state), link })
    }

    /// The page's link, with the token in its fragment.
    pub fn link(&self) -> &str {
        &self.link
    }

    /// Answers requests until nothing has come with the token for
    /// `linger`, counted from the first such request, or from now if
    /// `clock_now` (a browser was started on the link), while the page
    /// holds no socket open.
    pub fn run(self, linger: Duration, clock_now: bool) -> Result<()> {
        let started = Instant::now();
        loop {
            let seen = *self.state.last_seen.lock().unwrap_or_else(PoisonError::into_inner);
            let open = self.state.sockets.load(Ordering::SeqCst) > 0;
            if !open && seen.or(clock_now.then_some(started)).is_some_and(|t| t.elapsed() > linger) {
                eprintln!("longpole: the page has been gone for {} s: stopping", linger.as_secs());
                return Ok(());
            }
            if let Some(request) = self.server.recv_timeout(Duration::from_millis(200)).context("the server stopped")? {
                let state = self.state.clone();
                // A big file's answer must not hold the pings up.
                std::thread::spawn(move || answer(&state, request));
            }
        }
    }
}

/// The `Host` values of requests to a loopback server on `addr`.
fn accepted_hosts(addr: SocketAddr) -> Vec<String> {
    vec![addr.to_string(), format!("localhost:{}", addr.port())]
}

/// The SHA-256 of the file at `path`, as lowercase hex.
fn sha256(path: &Path) -> Result<String> {
    let cannot = || format!("cannot read {}", path.display());
    let mut file = std::fs::File::open(path).with_context(cannot)?;
    let (mut hash, mut buf) = (Sha256::new(), vec![0u8; 1 << 20]);
    loop {
        let n = file.read(&mut buf).with_context(cannot)?;
        let Some(piece) = buf.get(..n).filter(|p| !p.is_empty()) else { break };
        hash.update(piece);
    }
    Ok(hash.finalize().iter().map(|b| format!("{b:02x}")).collect())
}

/// Answers one request: the app's files to anyone on the right host; the
/// ping and the named files only with the token.
fn answer(state: &State, request: Request) {
    if let Some(hosts) = &state.hosts {
        if !http::header(&request, "Host").is_some_and(|h| hosts.iter().any(|a| a == h)) {
            return http::refuse(request, 403, "this server answers only requests to its own loopback address");
        }
    }
    let Some(path) = http::path_of(&request).filter(|p| p.starts_with("_longpole/")) else {
        return http::serve_bundle(request);
    };
    if let (socket::PATH, Some(native)) = (path.as_str(), &state.native) {
        state.sockets.fetch_add(1, Ordering::SeqCst);
        let served = socket::serve(request, &state.origin, &state.token, native, &|| state.seen());
        state.sockets.fetch_sub(1, Ordering::SeqCst);
        // The linger counts from the page's socket's close.
        if served {
            state.seen();
        }
        return;
    }
    if !http::header(&request, TOKEN_HEADER).is_some_and(|t| token::same(t, &state.token)) {
        return http::refuse(request, 403, "this needs the token of the page longpole open opened");
    }
    if !matches!(request.method(), Method::Get | Method::Head) {
        return http::refuse(request, 405, "only GET and HEAD are answered");
    }
    state.seen();
    if path == PING {
        let mut response = Response::empty(204);
        for h in http::common_headers() {
            response.add_header(h);
        }
        let _ = request.respond(response);
        return;
    }
    let Some(file) = state.files.get(&path) else { return http::refuse(request, 404, "no such file") };
    let Ok(opened) = std::fs::File::open(file) else {
        return http::refuse(request, 404, "the file can no longer be read");
    };
    let mut response = Response::from_file(opened);
    for h in http::common_headers() {
        response.add_header(h);
    }
    response.add_header(http::header_of("Content-Type", "application/octet-stream"));
    response.add_header(http::header_of("Cache-Control", "no-store"));
    // The page may have gone mid-way: nobody to tell.
    let _ = request.respond(response);
    state.seen();
}

#[cfg(test)]
#[path = "open_tests.rs"]
mod tests;
