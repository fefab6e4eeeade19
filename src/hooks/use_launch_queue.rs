//! Files the operating system opens with the installed app (the web app
//! manifest's `file_handlers`): where the browser has `window.launchQueue`,
//! each launch's files go to the same place as dropped ones. Elsewhere,
//! nothing happens.

use crate::state::Action;
use crate::worker_io::js_error;
use js_sys::{Array, Function, Promise, Reflect};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::{spawn_local, JsFuture};
use web_sys::File;
use yew::prelude::*;

/// The `File` behind one `FileSystemFileHandle` of a launch.
async fn file_of(handle: JsValue) -> Result<File, String> {
    let name = Reflect::get(&handle, &"name".into()).ok().and_then(|n| n.as_string()).unwrap_or_default();
    let err = |what: String| format!("could not open {name}, which the system gave longpole: {what}");
    let get_file: Function = Reflect::get(&handle, &"getFile".into())
        .ok()
        .and_then(|f| f.dyn_into().ok())
        .ok_or_else(|| err("it is not a file".into()))?;
    let promise: Promise =
        get_file.call0(&handle).map_err(|e| err(js_error(e)))?.dyn_into().map_err(|_| err("no file came".into()))?;
    let file = JsFuture::from(promise).await.map_err(|e| err(js_error(e)))?;
    file.dyn_into().map_err(|_| err("no file came".into()))
}

/// Every file of one launch (`LaunchParams`), in order.
async fn files_of_launch(params: JsValue) -> Result<Vec<File>, String> {
    let handles: Array =
        Reflect::get(&params, &"files".into()).ok().and_then(|f| f.dyn_into().ok()).unwrap_or_default();
    let mut files = Vec::with_capacity(handles.length() as usize);
    for handle in handles.iter() {
        files.push(file_of(handle).await?);
    }
    Ok(files)
}

/// Hands the files of every launch to `open_files` (the latest one given);
/// a file that cannot be read fails the launch with its name.
#[hook]
pub fn use_launch_queue(open_files: Callback<Vec<File>>, dispatch: Callback<Action>) {
    let latest = use_mut_ref(|| open_files.clone());
    *latest.borrow_mut() = open_files;
    let consumer = use_mut_ref(|| None::<Closure<dyn FnMut(JsValue)>>);
    use_effect_with((), move |_| {
        let queue =
            web_sys::window().and_then(|w| Reflect::get(&w, &"launchQueue".into()).ok()).filter(|q| q.is_object());
        let set_consumer = queue
            .as_ref()
            .and_then(|q| Reflect::get(q, &"setConsumer".into()).ok())
            .and_then(|f| f.dyn_into::<Function>().ok());
        if let (Some(queue), Some(set_consumer)) = (queue, set_consumer) {
            let latest: Rc<RefCell<Callback<Vec<File>>>> = latest;
            let on_failure = dispatch.clone();
            let closure = Closure::<dyn FnMut(JsValue)>::new(move |params: JsValue| {
                let (latest, dispatch) = (latest.clone(), on_failure.clone());
                spawn_local(async move {
                    match files_of_launch(params).await {
                        Ok(files) => {
                            let open_files = latest.borrow().clone();
                            open_files.emit(files);
                        }
                        Err(message) => dispatch.emit(Action::Failed(message)),
                    }
                });
            });
            match set_consumer.call1(&queue, closure.as_ref()) {
                Ok(_) => *consumer.borrow_mut() = Some(closure),
                Err(e) => dispatch.emit(Action::Failed(format!(
                    "longpole could not take the files the system opens with it: {}",
                    js_error(e)
                ))),
            }
        }
    });
}
