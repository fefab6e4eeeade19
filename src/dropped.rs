//! The files a drop gives: the files dropped, or, when a folder is among
//! them (a rolling Spark event log's `eventlog_v2_*`), every file in it,
//! read through `webkitGetAsEntry` and named with its folder
//! (`eventlog_v2_…/events_1_…`), so that the worker can tell which are one
//! log ([`crate::file_groups`]).

use js_sys::{Array, Function, Promise, Reflect};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{DataTransfer, File, FileSystemDirectoryEntry, FileSystemEntry};

/// The entries dropped, if a folder is among them; read them during the
/// drop event, while the transfer still holds them.
pub fn folder_entries(transfer: &DataTransfer) -> Option<Vec<FileSystemEntry>> {
    let items = transfer.items();
    let entries: Vec<FileSystemEntry> =
        (0..items.length()).filter_map(|i| items.get(i)?.webkit_get_as_entry().ok().flatten()).collect();
    entries.iter().any(FileSystemEntry::is_directory).then_some(entries)
}

/// Calls `method` of `this` with a success and an error callback, as the
/// entries API answers, and gives what the success callback was given.
async fn answer(this: &JsValue, method: &str) -> Result<JsValue, JsValue> {
    let f: Function = Reflect::get(this, &JsValue::from_str(method))?.dyn_into()?;
    let promise = Promise::new(&mut |resolve, reject| {
        if let Err(e) = f.call2(this, &resolve, &reject) {
            let _ = reject.call1(&JsValue::NULL, &e);
        }
    });
    JsFuture::from(promise).await
}

/// Every file under `entries`, in the order given and, within a folder,
/// by name; a file in a folder is named with its path from the drop.
/// A file or folder the browser does not let be read is left out.
pub async fn files_in(entries: Vec<FileSystemEntry>) -> Vec<File> {
    let mut files = Vec::new();
    let mut stack: Vec<FileSystemEntry> = entries.into_iter().rev().collect();
    while let Some(entry) = stack.pop() {
        if entry.is_directory() {
            let reader = entry.unchecked_ref::<FileSystemDirectoryEntry>().create_reader();
            let mut inside = Vec::new();
            // readEntries gives a batch at a time, and an empty one at the end.
            while let Ok(batch) = answer(&reader, "readEntries").await {
                let batch: Array = batch.unchecked_into();
                if batch.length() == 0 {
                    break;
                }
                inside.extend(batch.iter().map(|e| e.unchecked_into::<FileSystemEntry>()));
            }
            inside.sort_by_key(FileSystemEntry::name);
            stack.extend(inside.into_iter().rev());
        } else if let Ok(file) = answer(&entry, "file").await {
            let file: File = file.unchecked_into();
            let path = entry.full_path();
            let path = path.trim_start_matches('/');
            let named = match path.contains('/') {
                true => File::new_with_blob_sequence(&Array::of1(&file), path).unwrap_or(file),
                false => file,
            };
            files.push(named);
        }
    }
    files
}
