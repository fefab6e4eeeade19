//! Saving a file the page made (an export) through the browser's download,
//! from a `blob:` URL of the page's own: nothing leaves the machine.

use wasm_bindgen::JsCast;
use web_sys::{Blob, BlobPropertyBag, HtmlAnchorElement, Url};

/// Offers `text` as a download named `name` with MIME type `mime`.
pub fn download(name: &str, mime: &str, text: &str) -> Result<(), String> {
    let document = web_sys::window().and_then(|w| w.document()).ok_or("no document")?;
    let options = BlobPropertyBag::new();
    options.set_type(mime);
    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(text));
    let blob = Blob::new_with_str_sequence_and_options(&parts, &options).map_err(|_| "cannot make the file")?;
    save(&document, &blob, name)
}

/// Clicks a link to `blob` named `name`.
fn save(document: &web_sys::Document, blob: &Blob, name: &str) -> Result<(), String> {
    let url = Url::create_object_url_with_blob(blob).map_err(|_| "cannot make a URL for the file")?;
    let a: HtmlAnchorElement = document.create_element("a").map_err(|_| "no link")?.unchecked_into();
    a.set_href(&url);
    a.set_download(name);
    a.click();
    let _ = Url::revoke_object_url(&url);
    Ok(())
}

/// Offers `bytes` (already in JavaScript's memory) as a download named
/// `name` with MIME type `mime`.
pub fn download_array(name: &str, mime: &str, bytes: &js_sys::Uint8Array) -> Result<(), String> {
    let document = web_sys::window().and_then(|w| w.document()).ok_or("no document")?;
    let options = BlobPropertyBag::new();
    options.set_type(mime);
    let parts = js_sys::Array::of1(bytes);
    let blob = Blob::new_with_u8_array_sequence_and_options(&parts, &options).map_err(|_| "cannot make the file")?;
    save(&document, &blob, name)
}
