//! Reading an input by URL in the analysis worker (and the export
//! worker, [`crate::export_worker`]): `fetch` with the body
//! read as a stream, each piece fed to the core's [`Ingest`] as it comes
//! (never the whole file held first) and to a SHA-256 when the link gives
//! the digest to check. Errors are typed ([`UrlError`]) and name the URL.
//!
//! The fetch is the worker's: a dedicated worker takes its
//! Content-Security-Policy from its own script's response headers, not from
//! the page's `<meta>` (see docs/app.md, "Loading by URL").

use crate::protocol::{Source, TOKEN_HEADER};
use crate::worker_io::{feed, js_error, scope, Stop};
use js_sys::{Reflect, Uint8Array};
use longpole_core::{Ingest, Input};
use sha2::{Digest, Sha256};
use std::cell::RefCell;
use std::fmt;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{AbortController, Headers, ReadableStreamDefaultReader, RequestInit, Response};

/// Why an input could not be read by URL. Every message names the URL.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UrlError {
    /// `fetch` failed before any response: the network, a refused
    /// cross-origin read (no `Access-Control-Allow-Origin`), or a
    /// Content-Security-Policy; the browser does not say which.
    Unreachable {
        /// The URL.
        url: String,
        /// What the browser said.
        detail: String,
    },
    /// The server answered with a status other than 2xx.
    Status {
        /// The URL.
        url: String,
        /// The HTTP status.
        status: u16,
        /// Its text, if the server sent one.
        text: String,
    },
    /// The body stopped before its end.
    Cut {
        /// The URL.
        url: String,
        /// Bytes read before it stopped.
        bytes: u64,
        /// What the browser said.
        detail: String,
    },
    /// The bytes' SHA-256 is not the one the link gives.
    Checksum {
        /// The URL.
        url: String,
        /// The digest the link gives.
        expected: String,
        /// The digest of the bytes received.
        actual: String,
    },
}

impl fmt::Display for UrlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UrlError::Unreachable { url, detail } => write!(
                f,
                "{url}: could not be fetched ({detail}). The server may be unreachable, or it does not allow this \
                 page to read it (its response needs the header Access-Control-Allow-Origin)"
            ),
            UrlError::Status { url, status, text } if text.is_empty() => {
                write!(f, "{url}: the server answered HTTP {status}")
            }
            UrlError::Status { url, status, text } => write!(f, "{url}: the server answered HTTP {status} {text}"),
            UrlError::Cut { url, bytes, detail } => write!(
                f,
                "{url}: the connection was lost after {bytes} bytes ({detail}); the analysis is not shown for \
                 part of the file"
            ),
            UrlError::Checksum { url, expected, actual } => write!(
                f,
                "{url}: the bytes received do not have the SHA-256 the link gives (expected {expected}, got \
                 {actual}); the analysis is not shown"
            ),
        }
    }
}

impl std::error::Error for UrlError {}

impl From<UrlError> for Stop {
    fn from(e: UrlError) -> Stop {
        Stop::Failed(e.to_string())
    }
}

thread_local! {
    /// The fetches under way, so that a cancel stops them at once.
    static UNDER_WAY: RefCell<Vec<AbortController>> = const { RefCell::new(Vec::new()) };
}

/// Aborts every fetch under way: a reading waiting for the network stops
/// now rather than at its next piece.
pub fn abort_all() {
    for c in UNDER_WAY.with(|u| std::mem::take(&mut *u.borrow_mut())) {
        c.abort();
    }
}

/// A response whose body is yet to be read.
pub struct Opened {
    url: String,
    reader: ReadableStreamDefaultReader,
    /// Its Content-Length, when the server sent it.
    pub length: Option<u64>,
    sha256: Option<String>,
}

impl Drop for Opened {
    fn drop(&mut self) {
        // Stops the download if the body was not read to its end. The
        // promise only says when that happened, and is rejected if the
        // fetch was aborted: awaited, so that is not an unhandled error.
        let done = JsFuture::from(self.reader.cancel());
        wasm_bindgen_futures::spawn_local(async move {
            let _ = done.await;
        });
    }
}

/// Fetches a source (its URL absolute) up to its headers, with its token
/// if it has one; its body is read by [`read`].
pub async fn open(source: &Source) -> Result<Opened, UrlError> {
    let (url, sha256) = (source.url.as_str(), source.sha256.clone());
    let unreachable = |detail: String| UrlError::Unreachable { url: url.to_owned(), detail };
    let controller = AbortController::new().map_err(|e| unreachable(js_error(e)))?;
    let init = RequestInit::new();
    init.set_signal(Some(&controller.signal()));
    // No cookies or credentials go to another origin.
    init.set_credentials(web_sys::RequestCredentials::SameOrigin);
    if let Some(token) = &source.token {
        let headers = Headers::new().map_err(|e| unreachable(js_error(e)))?;
        headers.set(TOKEN_HEADER, token).map_err(|e| unreachable(js_error(e)))?;
        init.set_headers(&headers);
    }
    UNDER_WAY.with(|u| u.borrow_mut().push(controller));
    let response: Response = JsFuture::from(scope().fetch_with_str_and_init(url, &init))
        .await
        .map_err(|e| unreachable(js_error(e)))?
        .unchecked_into();
    if !response.ok() {
        return Err(UrlError::Status { url: url.to_owned(), status: response.status(), text: response.status_text() });
    }
    let length = response.headers().get("content-length").ok().flatten().and_then(|l| l.trim().parse().ok());
    let body = response.body().ok_or_else(|| unreachable("the response has no body".into()))?;
    let reader = body.get_reader().unchecked_into();
    Ok(Opened { url: url.to_owned(), reader, length, sha256 })
}

/// Reads an opened response's body through an [`Ingest`] named by its URL.
///
/// After each piece `between(ingest, bytes)` is told how many bytes came;
/// returning false stops with [`Stop::Cancelled`] (as does an abort).
/// The digest, if given, is checked over the bytes as received.
pub async fn read(opened: Opened, between: impl FnMut(&Ingest, u64) -> bool) -> Result<Input, Stop> {
    read_tapped(opened, |_| {}, between).await
}

/// [`read`], also handing every piece's bytes to `tap` before the core
/// reads them (the export worker hashes them for the run's id).
pub async fn read_tapped(
    opened: Opened,
    mut tap: impl FnMut(&[u8]),
    mut between: impl FnMut(&Ingest, u64) -> bool,
) -> Result<Input, Stop> {
    let url = opened.url.clone();
    let from = url.clone();
    let core = move |e: longpole_core::Error| Stop::Failed(format!("{e} (read from {from})"));
    let mut ingest = Ingest::new(&file_name(&url));
    if let Some(n) = opened.length {
        ingest.expect_bytes(n);
    }
    let mut hash = opened.sha256.as_ref().map(|_| Sha256::new());
    let (mut buf, mut bytes) = (Vec::new(), 0u64);
    loop {
        let piece = JsFuture::from(opened.reader.read()).await;
        // A cancel aborts the fetch: the read fails, and `between` says why.
        let piece = match piece {
            Ok(piece) => piece,
            Err(_) if !between(&ingest, 0) => return Err(Stop::Cancelled),
            Err(e) => return Err(UrlError::Cut { url, bytes, detail: js_error(e) }.into()),
        };
        match Reflect::get(&piece, &"done".into()).ok().and_then(|d| d.as_bool()) {
            Some(true) => break,
            Some(false) => {}
            None => {
                return Err(
                    UrlError::Cut { url, bytes, detail: "the body's reader said neither done nor not".into() }.into()
                )
            }
        }
        let Ok(array) = Reflect::get(&piece, &"value".into()).and_then(|v| v.dyn_into::<Uint8Array>()) else {
            return Err(UrlError::Cut { url, bytes, detail: "the body gave something other than bytes".into() }.into());
        };
        buf.resize(array.length() as usize, 0);
        array.copy_to(&mut buf);
        bytes += buf.len() as u64;
        if let Some(h) = &mut hash {
            h.update(&buf);
        }
        tap(&buf);
        feed(&mut ingest, &buf).map_err(&core)?;
        if !between(&ingest, buf.len() as u64) {
            return Err(Stop::Cancelled);
        }
    }
    if let (Some(expected), Some(h)) = (&opened.sha256, hash) {
        let actual: String = h.finalize().iter().map(|b| format!("{b:02x}")).collect();
        if actual != *expected {
            return Err(UrlError::Checksum { url, expected: expected.clone(), actual }.into());
        }
    }
    ingest.finish().map_err(&core)
}

/// The name an input read from `url` goes by: its path's last part
/// (percent-decoded), else its host.
pub fn file_name(url: &str) -> String {
    let path = url.split(['?', '#']).next().unwrap_or(url);
    let path = path.split_once("://").map_or(path, |(_, rest)| rest);
    let last = path.rsplit('/').find(|p| !p.is_empty()).unwrap_or(path);
    crate::link::decode_component(last).unwrap_or_else(|| last.to_owned())
}
