//! The worker protocol's decoding: any bytes as a page → worker request
//! and as a worker → page response, as the worker and the page decode
//! them; what decodes encodes again.
#![no_main]

use libfuzzer_sys::fuzz_target;
use longpole::protocol::{Request, Response};

fuzz_target!(|data: &[u8]| {
    if let Ok(request) = serde_json::from_slice::<Request>(data) {
        assert!(request.to_json().is_ok());
    }
    if let Ok(response) = serde_json::from_slice::<Response>(data) {
        assert!(response.to_json().is_ok());
    }
});
