//! What differs between two runs of the same work but names the same task:
//! hashes, hex addresses, temporary directories and build roots. A key is
//! normalised before it is matched, so that `obj/3f9a2c01d4e5/a.o` in one
//! build and `obj/77b0e1aa9c3d/a.o` in the next are one task.
//!
//! - `0x` followed by hex digits (an address) becomes `0x#`;
//! - a word of 8 or more hex digits with at least one digit and one letter,
//!   or of 16 or more digits (a content hash, a build id) becomes `#`;
//! - a temporary directory (`/tmp/<name>`, `/var/tmp/<name>`,
//!   `/private/var/folders/<a>/<b>/T/<name>`) becomes `$(TMP)`;
//! - a build root (`…/execroot/<workspace>/`, `/proc/self/cwd/`, a
//!   sandbox's `…/sandbox/<strategy>/<number>/`) is cut;
//! - a shard's or chunk's number (`shard 3 of 8`, `shard_3`, `chunk-12`)
//!   becomes `#`, so that a sharded task's shards are one group with a count.
//!
//! Words are split at anything that is not a letter, digit or `_`.

use std::borrow::Cow;

/// `key` with hashes, addresses, temporary directories and build roots
/// replaced by placeholders (borrowed when there is nothing to replace).
pub fn normalise(key: &str) -> Cow<'_, str> {
    if may_change(key) {
        Cow::Owned(replaced(key))
    } else {
        Cow::Borrowed(key)
    }
}

/// Whether `key` has anything [`normalise`] could replace: a marker of a
/// root, a temporary directory, a shard or an address, or 8 hex digits in
/// a row. One pass over the bytes: most keys have none, and a build has
/// hundreds of thousands of keys.
fn may_change(key: &str) -> bool {
    const AFTER_SLASH: [&[u8]; 4] = [b"tmp/", b"private/var/folders/", b"execroot/", b"sandbox/"];
    let bytes = key.as_bytes();
    let mut run = 0;
    bytes.iter().enumerate().any(|(i, &b)| {
        run = if b.is_ascii_hexdigit() { run + 1 } else { 0 };
        let rest = &bytes[i + 1..];
        run >= 8
            || match b {
                b'0' => rest.first().is_some_and(|&x| x == b'x' || x == b'X'),
                b'/' => AFTER_SLASH.iter().any(|m| rest.starts_with(m)) || rest.starts_with(b"proc/self/cwd/"),
                b's' => rest.starts_with(b"hard"),
                b'c' => rest.starts_with(b"hunk"),
                _ => false,
            }
    })
}

/// [`normalise`]'s work.
fn replaced(key: &str) -> String {
    let key = cut_roots(key);
    let key = temporary(&key);
    let key = shards(&key);
    let mut out = String::with_capacity(key.len());
    let bytes = key.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let word_end = i + bytes[i..].iter().take_while(|b| b.is_ascii_alphanumeric() || **b == b'_').count();
        if word_end == i {
            let c = key[i..].chars().next().unwrap_or(' ');
            out.push(c);
            i += c.len_utf8();
            continue;
        }
        out.push_str(&word(&key[i..word_end]));
        i = word_end;
    }
    out
}

/// One word, replaced when it is an address or a hash.
fn word(w: &str) -> Cow<'_, str> {
    let hex = |s: &str| s.bytes().all(|b| b.is_ascii_hexdigit());
    if let Some(rest) = w.strip_prefix("0x").or_else(|| w.strip_prefix("0X")) {
        if !rest.is_empty() && hex(rest) {
            return "0x#".into();
        }
    }
    let digits = w.bytes().filter(u8::is_ascii_digit).count();
    let hashlike = hex(w) && w.len() >= 8 && digits > 0 && (digits < w.len() || w.len() >= 16);
    if hashlike {
        "#".into()
    } else {
        w.into()
    }
}

/// `key` with the number after `shard` or `chunk` (and a space, `_`, `-`,
/// `:` or `=`) as `#`.
fn shards(key: &str) -> String {
    let mut out = String::with_capacity(key.len());
    let mut rest = key;
    while let Some(at) = ["shard", "chunk"].iter().filter_map(|w| rest.find(w)).min() {
        let after = at + 5;
        out.push_str(&rest[..after]);
        rest = &rest[after..];
        let sep = rest.bytes().take_while(|b| b" _-:=".contains(b)).count().min(1);
        let digits = rest[sep..].bytes().take_while(u8::is_ascii_digit).count();
        if digits > 0 {
            out.push_str(&rest[..sep]);
            out.push('#');
            rest = &rest[sep + digits..];
        }
    }
    out.push_str(rest);
    out
}

/// `key` with its build roots cut.
fn cut_roots(key: &str) -> String {
    let mut key = key.to_owned();
    if let Some(at) = key.find("/execroot/") {
        let after = at + "/execroot/".len();
        let ws_end = key[after..].find('/').map_or(key.len(), |e| after + e + 1);
        let start = key[..at].rfind([' ', '\t', '"', '=']).map_or(0, |s| s + 1);
        key.replace_range(start..ws_end, "");
    }
    key = key.replace("/proc/self/cwd/", "");
    while let Some(at) = key.find("/sandbox/") {
        // `…/sandbox/<strategy>/<number>/`: the strategy and the number go.
        let rest = &key[at + "/sandbox/".len()..];
        let mut parts = rest.splitn(3, '/');
        let (strategy, number) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
        if strategy.is_empty() || number.is_empty() || !number.bytes().all(|b| b.is_ascii_digit()) {
            break;
        }
        let start = key[..at].rfind([' ', '\t', '"', '=']).map_or(0, |s| s + 1);
        let end = at + "/sandbox/".len() + strategy.len() + 1 + number.len() + 1;
        key.replace_range(start..end.min(key.len()), "");
    }
    key
}

/// `key` with temporary directories as `$(TMP)`.
fn temporary(key: &str) -> String {
    let mut out = key.to_owned();
    for prefix in ["/private/var/folders/", "/var/tmp/", "/tmp/"] {
        let mut from = 0;
        while let Some(at) = out[from..].find(prefix).map(|a| a + from) {
            // Not a suffix of a longer path component (`/mytmp/`), and not
            // the `/tmp/` inside `/var/tmp/`, already replaced.
            let rest = &out[at + prefix.len()..];
            let skip = if prefix == "/private/var/folders/" {
                // `<a>/<b>/T/<name>`
                let parts: Vec<&str> = rest.splitn(5, '/').collect();
                if parts.len() >= 4 && parts[2] == "T" {
                    parts[..4].iter().map(|p| p.len() + 1).sum::<usize>() - 1
                } else {
                    from = at + prefix.len();
                    continue;
                }
            } else {
                rest.find(['/', ' ', '"']).unwrap_or(rest.len())
            };
            out.replace_range(at..at + prefix.len() + skip, "$(TMP)");
            from = at + "$(TMP)".len();
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::normalise;

    #[test]
    fn hashes_addresses_temporary_directories_and_roots_are_replaced() {
        for (raw, want) in [
            ("obj/3f9a2c01d4e5/a.o", "obj/#/a.o"),
            ("lambda at 0x7ffd5a3c", "lambda at 0x#"),
            ("build 1732000000000000001", "build #"),
            ("/tmp/tmpk2j3_x/out.o", "$(TMP)/out.o"),
            ("/var/tmp/cc1.s", "$(TMP)"),
            ("/private/var/folders/xy/abc123/T/clang-1/a.o", "$(TMP)/a.o"),
            (
                "/home/u/.cache/bazel/_bazel_u/1a2b3c/execroot/_main/bazel-out/k8-opt/bin/a.o",
                "bazel-out/k8-opt/bin/a.o",
            ),
            ("/proc/self/cwd/src/a.cc", "src/a.cc"),
            ("/b/sandbox/linux-sandbox/42/execroot/ws/x.o", "x.o"),
            ("/b/sandbox/processwrapper-sandbox/7/src/x.o", "src/x.o"),
            ("//foo:bar_test (shard 3 of 8)", "//foo:bar_test (shard # of 8)"),
            ("run_test shard_12", "run_test shard_#"),
            ("test chunk-4 of pkg", "test chunk-# of pkg"),
        ] {
            assert_eq!(normalise(raw), want, "{raw}");
        }
    }

    #[test]
    fn ordinary_words_and_numbers_stay() {
        for kept in [
            "obj/src/ninja.o",
            "CC $(BUILD_ROOT)/project0/file12.cpp.o",
            "deadbeef",
            "20240101",
            "thread 12",
            "shards/a",
        ] {
            assert_eq!(normalise(kept), kept);
        }
    }
}
