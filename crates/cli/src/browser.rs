//! Opening a URL in the user's default browser: `$BROWSER` if set, else
//! the system's opener (`xdg-open`, `open`, or Windows' URL handler).

use anyhow::{Context, Result};
use std::process::{Command, Stdio};

/// Starts the browser on `url` without waiting for it to close.
pub fn open(url: &str) -> Result<()> {
    let mut command = match std::env::var("BROWSER").ok().filter(|b| !b.trim().is_empty()) {
        Some(browser) => Command::new(browser),
        None if cfg!(target_os = "macos") => Command::new("open"),
        None if cfg!(windows) => {
            let mut c = Command::new("rundll32");
            c.arg("url.dll,FileProtocolHandler");
            c
        }
        None => Command::new("xdg-open"),
    };
    command.arg(url).stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::null());
    command.spawn().map(drop).context("cannot start a browser")
}
