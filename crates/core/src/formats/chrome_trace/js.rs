//! `JSON.stringify` as JavaScript writes it, for frame keys that must equal
//! speedscope's: members in their order, no spaces, numbers as
//! `Number.prototype.toString` prints them (`1.0` → `1`, `1e21` → `1e+21`).

use serde_json::Value;

/// `JSON.stringify(value)`.
pub fn js_stringify(value: &Value) -> String {
    let mut out = String::new();
    write_value(&mut out, value);
    out
}

/// Appends `JSON.stringify(value)` to `out`.
pub(super) fn write_value(out: &mut String, value: &Value) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => out.push_str(&js_number(n.as_f64().unwrap_or(f64::NAN))),
        Value::String(s) => write_string(out, s),
        Value::Array(items) => {
            out.push('[');
            for (i, v) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_value(out, v);
            }
            out.push(']');
        }
        Value::Object(members) => {
            out.push('{');
            for (i, (k, v)) in members.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_string(out, k);
                out.push(':');
                write_value(out, v);
            }
            out.push('}');
        }
    }
}

fn write_string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
}

/// `Number.prototype.toString()` of a finite number (`null` otherwise, as
/// `JSON.stringify` writes it).
pub fn js_number(x: f64) -> String {
    if !x.is_finite() {
        return "null".to_owned();
    }
    if x == 0.0 {
        return "0".to_owned();
    }
    // Shortest round-trip digits and exponent: x = 0.d1d2…dk × 10^n.
    let sci = format!("{:e}", x.abs());
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let k = digits.len() as i32;
    let n = exp.parse::<i32>().unwrap_or(0) + 1;
    let body = if k <= n && n <= 21 {
        format!("{digits}{}", "0".repeat((n - k) as usize))
    } else if 0 < n && n <= 21 {
        format!("{}.{}", &digits[..n as usize], &digits[n as usize..])
    } else if -6 < n && n <= 0 {
        format!("0.{}{digits}", "0".repeat((-n) as usize))
    } else {
        let sign = if n - 1 < 0 { '-' } else { '+' };
        let tail = if k > 1 { format!(".{}", &digits[1..]) } else { String::new() };
        format!("{}{tail}e{sign}{}", &digits[..1], (n - 1).abs())
    };
    if x < 0.0 {
        format!("-{body}")
    } else {
        body
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_as_javascript_prints_them() {
        for (x, want) in [
            (1.0, "1"),
            (-2.5, "-2.5"),
            (1e21, "1e+21"),
            (123456789012.0, "123456789012"),
            (1e-7, "1e-7"),
            (0.000001, "0.000001"),
            (1.5e-10, "1.5e-10"),
            (0.1, "0.1"),
        ] {
            assert_eq!(js_number(x), want, "{x}");
        }
    }

    #[test]
    fn objects_keep_their_order_and_lose_their_spaces() {
        let v: Value = serde_json::from_str("{\"b\": 1.0, \"a\": [true, null, \"q\\\"\\u0001\"]}").unwrap();
        assert_eq!(js_stringify(&v), "{\"b\":1,\"a\":[true,null,\"q\\\"\\u0001\"]}");
    }
}
