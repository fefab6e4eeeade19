//! What `longpole serve` and `longpole open` share of HTTP: binding
//! (loopback unless told otherwise), a request's path and headers read
//! safely, content types, and the bundle's files answered (GET and HEAD
//! only; no listing; nothing but the bundle's own files).

use crate::bundle;
use anyhow::{anyhow, Result};
use std::io::Cursor;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use tiny_http::{Header, Method, Request, Response, Server, StatusCode};

/// Where a server listens: `bind` (127.0.0.1 when not given) and `port` (0:
/// a free one). Any address but a loopback one prints a warning.
pub fn listen(bind: Option<IpAddr>, port: u16) -> Result<(Server, SocketAddr)> {
    let ip = bind.unwrap_or(IpAddr::V4(Ipv4Addr::LOCALHOST));
    if !ip.is_loopback() {
        eprintln!(
            "longpole: warning: listening on {ip}, not on loopback only: anyone who can reach this address \
             can load what is served"
        );
    }
    let server = Server::http(SocketAddr::new(ip, port)).map_err(|e| anyhow!("cannot listen on {ip}:{port}: {e}"))?;
    let addr = server.server_addr().to_ip().ok_or_else(|| anyhow!("the server has no IP address"))?;
    Ok((server, addr))
}

/// The URL a browser opens for a server on `addr`: 127.0.0.1 for a
/// server on every address.
pub fn base_url(addr: SocketAddr) -> String {
    let ip = if addr.ip().is_unspecified() { IpAddr::V4(Ipv4Addr::LOCALHOST) } else { addr.ip() };
    format!("http://{}/", SocketAddr::new(ip, addr.port()))
}

/// A request's path, percent-decoded, without its leading `/` and its
/// query; None if it is not valid or names `.`, `..` or an empty part
/// before its end (`a//b`), or holds a backslash or a NUL.
pub fn path_of(request: &Request) -> Option<String> {
    let raw = request.url().split(['?', '#']).next()?;
    let raw = raw.strip_prefix('/')?;
    let path = decode(raw)?;
    let parts: Vec<&str> = path.split('/').collect();
    let last = parts.len().saturating_sub(1);
    let bad = parts.iter().enumerate().any(|(i, p)| *p == "." || *p == ".." || (p.is_empty() && i != last));
    (!bad && !path.contains(['\\', '\0'])).then_some(path)
}

/// Decodes `%XX`; None if a `%` is not followed by two hex digits or the
/// result is not UTF-8.
pub fn decode(s: &str) -> Option<String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        if b == b'%' {
            let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(b);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// Percent-encodes `s` for a URL's path or a link's value: letters,
/// digits and `-_.~` stay, every other byte is `%XX`.
pub fn encode(s: &str) -> String {
    s.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
                char::from(b).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

/// The value of a request's header `name`, if it has it once.
pub fn header<'a>(request: &'a Request, name: &'static str) -> Option<&'a str> {
    let mut found = request.headers().iter().filter(|h| h.field.equiv(name));
    let first = found.next()?;
    found.next().is_none().then(|| first.value.as_str())
}

/// The content type of a file by its name's extension.
pub fn content_type(path: &str) -> &'static str {
    let ext = path.rsplit_once('.').map_or("", |(_, e)| e);
    match ext.to_ascii_lowercase().as_str() {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "wasm" => "application/wasm",
        "json" => "application/json",
        "webmanifest" => "application/manifest+json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "ico" => "image/x-icon",
        "md" | "txt" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

/// A header made of two ASCII strings.
pub fn header_of(name: &str, value: &str) -> Header {
    Header::from_bytes(name.as_bytes(), value.as_bytes()).expect("the headers longpole sends are ASCII")
}

/// The headers on every answer: the content is what it says it is, and
/// no page of another origin may embed it.
pub fn common_headers() -> Vec<Header> {
    vec![
        header_of("X-Content-Type-Options", "nosniff"),
        header_of("Cross-Origin-Resource-Policy", "same-origin"),
        header_of("Referrer-Policy", "no-referrer"),
    ]
}

/// Answers `status` with a short text saying why.
pub fn refuse(request: Request, status: u16, why: &str) {
    let mut response = Response::from_string(format!("{why}\n")).with_status_code(StatusCode(status));
    for h in common_headers() {
        response.add_header(h);
    }
    response.add_header(header_of("Content-Type", "text/plain; charset=utf-8"));
    // The client may have gone: nobody to tell.
    let _ = request.respond(response);
}

/// Answers a request for a file of the bundle (`/` is `index.html`): only
/// GET and HEAD, only the bundle's own files, never a listing.
pub fn serve_bundle(request: Request) {
    if !matches!(request.method(), Method::Get | Method::Head) {
        return refuse(request, 405, "only GET and HEAD are answered");
    }
    let Some(path) = path_of(&request) else { return refuse(request, 404, "no such file") };
    let path = if path.is_empty() { "index.html".to_owned() } else { path };
    let Some(bytes) = bundle::file(&path) else { return refuse(request, 404, "no such file") };
    let mut headers = common_headers();
    headers.push(header_of("Content-Type", content_type(&path)));
    // The page and the service worker's list must be asked for again at each
    // load, so that a newer longpole's app is seen.
    headers.push(header_of("Cache-Control", "no-cache"));
    let response = Response::new(StatusCode(200), headers, Cursor::new(bytes), Some(bytes.len()), None);
    let _ = request.respond(response);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_types_are_those_browsers_want() {
        assert_eq!(content_type("app_bg.wasm"), "application/wasm");
        assert_eq!(content_type("index.html"), "text/html; charset=utf-8");
        assert_eq!(content_type("boot.js"), "text/javascript; charset=utf-8");
        assert_eq!(content_type("manifest.webmanifest"), "application/manifest+json");
        assert_eq!(content_type("samples/x.log.gz"), "application/octet-stream");
    }

    #[test]
    fn names_are_encoded_so_that_they_decode_back() {
        let name = "a b&c=d/é%.log";
        assert_eq!(encode(name), "a%20b%26c%3Dd%2F%C3%A9%25.log");
        assert_eq!(decode(&encode(name)).as_deref(), Some(name));
        assert_eq!(decode("%zz"), None);
        assert_eq!(decode("%C3"), None);
    }
}
