//! `longpole serve`: the app built into this binary ([`crate::bundle`]),
//! served on loopback for offline use or behind a team's docs host.

use crate::{bundle, http};
use anyhow::Result;
use std::net::IpAddr;

/// Serves the bundle on `bind` (loopback by default) and `port` (0: a free
/// one) until the process is stopped.
pub fn serve(bind: Option<IpAddr>, port: u16) -> Result<()> {
    bundle::required()?;
    let (server, addr) = http::listen(bind, port)?;
    println!("longpole: serving the app at {} (Ctrl-C to stop)", http::base_url(addr));
    for request in server.incoming_requests() {
        http::serve_bundle(request);
    }
    Ok(())
}
