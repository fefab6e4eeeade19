//! `longpole open` chooses where to read by itself: files projected past a
//! tab's memory are read in the process (`native=1` in the link), with the
//! reason on stderr; `--tab` keeps them in the tab; small files stay there.

use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::process::{Command, Stdio};

/// The link `open` prints and what it said on stderr, for `args`; with
/// `link` false, what it said in its first two seconds (a big file's
/// digest, for the tab, takes a while).
fn open(args: &[&str], file: &Path, link: bool) -> (String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_longpole"))
        .args(["open", "--no-browser", "--print-url"])
        .args(args)
        .arg(file)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut printed = String::new();
    if link {
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut printed).unwrap();
    } else {
        std::thread::sleep(std::time::Duration::from_secs(2));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let mut said = String::new();
    child.stderr.take().unwrap().read_to_string(&mut said).unwrap();
    (printed, said)
}

#[test]
fn files_past_a_tab_are_read_natively_unless_told_otherwise() {
    let dir = std::env::temp_dir().join(format!("longpole-open-projection-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // A GHC eventlog's magic, then nothing up to 4 GiB (a sparse file: no
    // disk used): at 2.8 bytes a byte (4 where the reader gives up on the
    // zeros), far past the tab's 3 GiB.
    let big = dir.join("big.eventlog");
    std::fs::write(&big, b"hdrbhetb").unwrap();
    std::fs::OpenOptions::new().write(true).open(&big).unwrap().set_len(4 << 30).unwrap();
    let (link, said) = open(&[], &big, true);
    assert!(link.contains("native=1"), "{link}");
    assert!(said.contains("in a browser tab, over its limit of 3072 MiB"), "{said}");

    let (_, said) = open(&["--tab"], &big, false);
    assert!(!said.contains("over its limit"), "{said}");

    let small = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples/distbuild-example.log");
    let (link, said) = open(&[], &small, true);
    assert!(!link.contains("native=1") && link.contains("sha256="), "{link}");
    assert!(!said.contains("over its limit"), "{said}");
    std::fs::remove_dir_all(&dir).unwrap();
}
