//! The files of a comparison a link names (`#src=…&vs=…`, [`crate::link`]),
//! fetched by the page as `File`s and handed to the compare screen as
//! picked files are: each with the link's token in a header when it has
//! one, each checked against its digest before it is compared.

use crate::protocol::{Source, TOKEN_HEADER};
use js_sys::Uint8Array;
use sha2::{Digest, Sha256};
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{File, Headers, RequestInit, Response};

/// Fetches `source` (its URL absolute) whole as a `File` named by its URL;
/// every failure names the URL.
pub async fn fetch_file(source: &Source) -> Result<File, String> {
    let url = &source.url;
    let err = |what: String| format!("{url}: {what}");
    let js = |e: wasm_bindgen::JsValue| err(format!("could not be fetched ({})", e.as_string().unwrap_or_default()));
    let window = web_sys::window().ok_or_else(|| err("there is no window to fetch it from".into()))?;
    let init = RequestInit::new();
    init.set_credentials(web_sys::RequestCredentials::SameOrigin);
    if let Some(token) = &source.token {
        let headers = Headers::new().map_err(js)?;
        headers.set(TOKEN_HEADER, token).map_err(js)?;
        init.set_headers(&headers);
    }
    let response: Response =
        JsFuture::from(window.fetch_with_str_and_init(url, &init)).await.map_err(js)?.unchecked_into();
    if !response.ok() {
        return Err(err(format!("the server answered HTTP {}", response.status())));
    }
    let buffer = JsFuture::from(response.array_buffer().map_err(js)?).await.map_err(js)?;
    let bytes = Uint8Array::new(&buffer);
    if let Some(expected) = &source.sha256 {
        let actual: String = Sha256::digest(bytes.to_vec()).iter().map(|b| format!("{b:02x}")).collect();
        if actual != *expected {
            return Err(err(format!(
                "the bytes received do not have the SHA-256 the link gives (expected {expected}, got {actual}); \
                 the comparison is not shown"
            )));
        }
    }
    let name = crate::url_read::file_name(url);
    File::new_with_u8_array_sequence(&js_sys::Array::of1(&bytes), &name).map_err(js)
}

/// Fetches every source in turn, stopping at the first failure.
pub async fn fetch_files(sources: &[Source]) -> Result<Vec<File>, String> {
    let mut files = Vec::with_capacity(sources.len());
    for s in sources {
        files.push(fetch_file(s).await?);
    }
    Ok(files)
}
