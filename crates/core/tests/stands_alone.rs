//! The repository stands alone: no test, bench or script reads the
//! project's `../shared` folder (the specs and corpus it grew from), so a
//! bare clone passes its own test command. Every code file of the
//! repository (Rust, shell, JavaScript, Python) is read, and a line that is
//! not a comment must not name `../shared`, `shared/corpus` or
//! `shared/bench`. Comments may cite the specs.

use std::path::{Path, PathBuf};

/// What a code line must not name.
const FORBIDDEN: &[&str] = &["../shared", "shared/corpus", "shared/bench"];

/// The code files' extensions.
const CODE: &[&str] = &["rs", "sh", "mjs", "js", "py", "toml"];

/// Folders never read: build output and installed packages.
const SKIPPED: &[&str] = &["target", "node_modules", "dist", ".git"];

/// The first line of `text` that reads the shared folder: (line number, line).
fn reads_shared(text: &str) -> Option<(usize, &str)> {
    text.lines().enumerate().map(|(i, l)| (i + 1, l)).find(|(_, line)| {
        let code = line.trim_start();
        let comment = ["//", "#", "*", "/*"].iter().any(|c| code.starts_with(c));
        !comment && FORBIDDEN.iter().any(|f| code.contains(f))
    })
}

fn code_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let p = e.path();
        let name = e.file_name().to_string_lossy().into_owned();
        if p.is_dir() {
            if !SKIPPED.contains(&name.as_str()) {
                code_files(&p, out);
            }
        } else if p.extension().is_some_and(|x| CODE.iter().any(|c| x == *c)) {
            out.push(p);
        }
    }
}

#[test]
fn no_code_file_reads_the_shared_folder() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files = Vec::new();
    code_files(&root, &mut files);
    assert!(files.len() > 100, "the repository's code files were not found from {}", root.display());
    let offenders: Vec<String> = files
        .iter()
        .filter(|p| !p.ends_with(file!().rsplit('/').next().unwrap_or_default()))
        .filter_map(|p| {
            let text = std::fs::read_to_string(p).ok()?;
            let (n, line) = reads_shared(&text)?;
            Some(format!("{}:{n}: {}", p.display(), line.trim()))
        })
        .collect();
    assert!(offenders.is_empty(), "these read ../shared, which a bare clone has not:\n{}", offenders.join("\n"));
}

#[test]
fn a_planted_read_is_found_and_a_comment_is_not() {
    assert_eq!(reads_shared("//! Spec: `shared/specs/x.md`\n# from ../shared/corpus\nlet x = 1;"), None);
    let planted = "fn corpus() {\n    let p = \"../shared/corpus/ninja\";\n}";
    assert_eq!(reads_shared(planted), Some((2, "    let p = \"../shared/corpus/ninja\";")));
    assert!(reads_shared("CORPUS=${CORPUS:-../../shared/bench}").is_some());
}
