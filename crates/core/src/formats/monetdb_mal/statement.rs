//! The MAL statement of an event, as stethoscope prints it
//! (`statement_constructor` of monetdb-stethoscope's transformers).
//!
//! 2018 events carry their statement (`stmt`) and it is printed as is.
//! Later events are rebuilt from their `args`: returned variables as
//! `name:type`, then `module.function(args)`, each argument a constant's
//! value, `name=value`, `name=[count]` for a BAT, or the type's default;
//! operators (`function`, `end`, `barrier`...) print as `operator program`.
//! Sep2022 servers write string constants without quotes, and stethoscope
//! 0.5 shows them quoted; Sep2022 events of other phases have no statement
//! (`null`).

use super::json::RawObject;
use serde::Deserialize;

/// The statement a 2018 event carries.
#[derive(Deserialize)]
struct Stmt {
    stmt: Option<String>,
}

/// The statement of one profiler object's text; `None` where stethoscope
/// prints `null` (SQL phases), or for text that is not an object.
pub fn statement(text: &[u8]) -> Option<String> {
    let o: RawObject = serde_json::from_slice(text).ok()?;
    if let Ok(Stmt { stmt: Some(stmt) }) = serde_json::from_slice::<Stmt>(text) {
        return Some(stmt);
    }
    let sep2022 = o.phase.is_some() || o.sessionid.is_some();
    if sep2022 && o.phase.as_deref() != Some("mal_engine") {
        return None;
    }
    let module = o.module.as_deref().unwrap_or("None");
    let function = o.function.as_deref().unwrap_or("None");
    let program = o.program.as_deref().unwrap_or("None");
    let head = match o.operator.as_deref() {
        None => format!("{module}.{function}"),
        Some("function") => format!("function {program}()"),
        Some(op) => format!("{op} {program}"),
    };
    let (mut rets, mut ret_types, mut args) = (String::new(), String::new(), String::new());
    let mut ret_num = 0i64;
    for a in o.args.iter().flatten() {
        let name = a.var.as_deref().unwrap_or("undefined");
        let ty = a.r#type.as_deref().unwrap_or("undefined");
        if a.ret.is_some() {
            if ret_num > 0 {
                rets.push(',');
                ret_types.push(',');
            }
            rets.push_str(&format!("{name}:{ty}"));
            ret_types.push_str(ty);
            ret_num += 1;
            continue;
        }
        if a.arg.unwrap_or(0) > ret_num {
            args.push(',');
        }
        let value = a.value.as_ref().map(|v| {
            let text = v.python_str();
            if sep2022 && ty == "str" && matches!(v, super::json::Scalar::Text(_)) {
                format!("\"{text}\"")
            } else {
                text.into_owned()
            }
        });
        let constant = a.constant.is_some_and(|c| c != 0);
        let shown = match (constant, value, a.count) {
            (true, v, _) => v.unwrap_or_else(|| "None".into()),
            (false, Some(v), _) => format!("{name}={v}"),
            (false, None, None) => format!("{name}={}", default_value(ty)),
            (false, None, Some(count)) => format!("{name}=[{count}]"),
        };
        args.push_str(&shown);
    }
    Some(match o.operator.as_deref() {
        Some("function") => match ret_num {
            0 => format!("{head};"),
            1 => format!("{head}:{ret_types};"),
            _ => format!("{head}:({ret_types});"),
        },
        Some(_) => head,
        None => match ret_num {
            0 => format!("{head}({args});"),
            1 => format!("{rets} := {head}({args});"),
            _ => format!("({rets}) := {head}({args});"),
        },
    })
}

/// What stethoscope shows for a variable with neither value nor count.
fn default_value(ty: &str) -> &'static str {
    match ty {
        "int" => "0",
        "str" => "\"\"",
        _ => "unknown",
    }
}

/// What `longpole dump --mal-statements` prints: one line per instruction
/// event, in file order, its statement or `null`.
pub fn statements(trace: &super::MalTrace, out: &mut String) {
    for e in &trace.events {
        match statement(trace.text_of(e)) {
            Some(s) => out.push_str(&s),
            None => out.push_str("null"),
        }
        out.push('\n');
    }
}
