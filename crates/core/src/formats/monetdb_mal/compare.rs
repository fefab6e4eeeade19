//! What names a MAL instruction across runs of a query, and a trace's
//! executions as runs of their own.
//!
//! A task's uid is `function[tag]:pc` (or `function (tag N)` for the whole
//! function, `phase (tag N)` for a SQL phase); the tag numbers the
//! execution, so it goes. The statement follows, with its variables'
//! numbers as `#` (`X_12` → `X_#`): a plan compiled again numbers its
//! variables again.

use super::reconcile::MalRun;
use crate::model::{Model, TaskId};

/// Every task's key, by [`TaskId`].
pub fn keys(model: &Model) -> Vec<String> {
    (0..model.tasks().len() as u32)
        .map(|i| {
            let id = TaskId(i);
            let uid = without_tag(model.uid(id));
            format!("{uid} {}", variables(&model.label(id)))
        })
        .collect()
}

/// Each execution as a run: its name and its instructions.
pub fn runs(run: &MalRun) -> Vec<(String, Vec<TaskId>)> {
    run.executions.iter().map(|x| (format!("#{} ({})", x.id, x.function), x.tasks.clone())).collect()
}

/// `function[tag]:pc` → `function:pc`; `name (tag N)` → `name`; an
/// execution of no known function is named by its tag (`tag 4:3`), which
/// becomes `tag #:3`.
fn without_tag(uid: &str) -> String {
    if let Some(cut) = uid.rfind(" (tag ") {
        return uid[..cut].to_owned();
    }
    let uid = match (uid.find('['), uid.rfind("]:")) {
        (Some(open), Some(close)) if open < close => format!("{}{}", &uid[..open], &uid[close + 1..]),
        _ => uid.to_owned(),
    };
    if let Some(rest) = uid.strip_prefix("tag ") {
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        if digits > 0 {
            return format!("tag #{}", &rest[digits..]);
        }
    }
    uid
}

/// `text` with MAL variables' numbers as `#`: an upper-case letter, `_`,
/// digits, not inside a longer word.
fn variables(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        let starts_word = i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_');
        if starts_word && b[i].is_ascii_uppercase() && b.get(i + 1) == Some(&b'_') {
            let digits = b[i + 2..].iter().take_while(|c| c.is_ascii_digit()).count();
            let ends_word = b.get(i + 2 + digits).is_none_or(|c| !(c.is_ascii_alphanumeric() || *c == b'_'));
            if digits > 0 && ends_word {
                out.push(b[i] as char);
                out.push_str("_#");
                i += 2 + digits;
                continue;
            }
        }
        let c = text[i..].chars().next().unwrap_or(' ');
        out.push(c);
        i += c.len_utf8();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_and_variable_numbers_go() {
        assert_eq!(without_tag("user.s0_1[16]:12"), "user.s0_1:12");
        assert_eq!(without_tag("user.s0_1 (tag 16)"), "user.s0_1");
        assert_eq!(without_tag("plain"), "plain");
        assert_eq!(without_tag("tag 4[4]:17"), "tag #:17");
        assert_eq!(
            variables("X_23:bat[:oid] := algebra.thetaselect(X_6, C_17, A_1B, \"<=\");"),
            "X_#:bat[:oid] := algebra.thetaselect(X_#, C_#, A_1B, \"<=\");"
        );
    }
}
