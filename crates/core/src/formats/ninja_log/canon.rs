//! ninja's path canonicalisation (`CanonicalizePath` in its `src/util.cc`):
//! the one spelling of a path under which the manifest, the log and the
//! deps log name a node.
//!
//! `.` components and empty ones (`a//b`) go, `x/..` cancels when `x` is a
//! name (leading `..` stay: they climb out of the build directory), a
//! leading `/` stays, `\` counts as `/` (ninja does so on Windows, where
//! these logs are written with either). Nothing is looked up on disk.

/// `path` as ninja canonicalises it; an empty result is `.` (as ninja has it).
pub fn canonical(path: &str) -> String {
    if !path.contains(['\\']) && is_canonical(path.as_bytes()) {
        return path.to_owned();
    }
    let path = path.replace('\\', "/");
    let absolute = path.starts_with('/');
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." if parts.last().is_some_and(|&p| p != "..") => {
                parts.pop();
            }
            ".." if absolute => {}
            _ => parts.push(part),
        }
    }
    let joined = parts.join("/");
    match (absolute, joined.is_empty()) {
        (true, _) => format!("/{joined}"),
        (false, true) => ".".to_owned(),
        (false, false) => joined,
    }
}

/// Whether `p` has nothing to canonicalise: no empty, `.` or `..` part.
fn is_canonical(p: &[u8]) -> bool {
    if p.is_empty() {
        return false;
    }
    let body = p.strip_prefix(b"/").unwrap_or(p);
    !body.is_empty() && body.split(|&b| b == b'/').all(|part| !part.is_empty() && part != b"." && part != b"..")
}

#[cfg(test)]
mod tests {
    use super::canonical;

    /// Cases from ninja's `util_test.cc` (`CanonicalizePath.PathSamples`,
    /// `UpDir`, `AbsolutePath`), its expected spellings hand-copied.
    #[test]
    fn canonicalises_as_ninja_does() {
        for (input, want) in [
            ("", "."),
            ("foo.h", "foo.h"),
            ("./foo.h", "foo.h"),
            ("./foo/./bar.h", "foo/bar.h"),
            ("./x/foo/../bar.h", "x/bar.h"),
            ("./x/foo/../../bar.h", "bar.h"),
            ("foo//bar", "foo/bar"),
            ("foo//.//..///bar", "bar"),
            ("./x/../foo/../../bar.h", "../bar.h"),
            ("foo/./.", "foo"),
            ("foo/bar/..", "foo"),
            ("foo/.hidden_bar", "foo/.hidden_bar"),
            ("/foo", "/foo"),
            ("//foo", "/foo"),
            ("..", ".."),
            ("../", ".."),
            ("../foo", "../foo"),
            ("../../foo/bar", "../../foo/bar"),
            ("foo/../../bar", "../bar"),
            ("/../foo", "/foo"),
            ("a\\b\\..\\c.o", "a/c.o"),
        ] {
            assert_eq!(canonical(input), want, "{input:?}");
        }
    }
}
