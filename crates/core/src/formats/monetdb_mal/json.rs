//! The profiler's JSON objects as serde reads them: every field the three
//! server generations write that longpole interprets, with the leniency the
//! old servers need (numbers written as strings, values of any JSON type).
//! Fields not listed are skipped here and kept in the trace's bytes.

use serde::de::{self, Deserializer, Visitor};
use serde::Deserialize;
use std::borrow::Cow;
use std::fmt;

/// One profiler object.
#[derive(Deserialize, Default)]
#[serde(default)]
pub struct RawObject<'a> {
    /// `trace` or `heartbeat` (2018 generation only).
    #[serde(borrow, deserialize_with = "text")]
    pub source: Option<Cow<'a, str>>,
    /// The server's UUID (2018, Jun2020).
    #[serde(borrow, deserialize_with = "text")]
    pub session: Option<Cow<'a, str>>,
    /// The client's index (Sep2022).
    #[serde(borrow, deserialize_with = "text")]
    pub sessionid: Option<Cow<'a, str>>,
    /// Query / plan id.
    #[serde(deserialize_with = "lenient_int")]
    pub tag: Option<i64>,
    /// Instruction index.
    #[serde(deserialize_with = "lenient_int")]
    pub pc: Option<i64>,
    /// `start`, `done`, `pause`, `ping`, `error`.
    #[serde(borrow, deserialize_with = "text")]
    pub state: Option<Cow<'a, str>>,
    /// Sep2022's phase (`mal_engine`, `text_to_sql`...).
    #[serde(borrow, deserialize_with = "text")]
    pub phase: Option<Cow<'a, str>>,
    /// µs since server start (2018, Sep2022) or since the epoch (Jun2020).
    #[serde(deserialize_with = "lenient_int")]
    pub clk: Option<i64>,
    /// µs since the epoch (2018).
    #[serde(deserialize_with = "lenient_int")]
    pub ctime: Option<i64>,
    /// µs since server start (Jun2020).
    #[serde(deserialize_with = "lenient_int")]
    pub mclk: Option<i64>,
    /// The thread that ran the instruction.
    #[serde(deserialize_with = "lenient_int")]
    pub thread: Option<i64>,
    /// 2018: the enclosing MAL function (`user.s4_1`); later: the instruction.
    #[serde(borrow, deserialize_with = "text")]
    pub function: Option<Cow<'a, str>>,
    /// 2018: the instruction (`join`).
    #[serde(borrow, deserialize_with = "text")]
    pub instruction: Option<Cow<'a, str>>,
    /// Jun2020: the enclosing MAL function.
    #[serde(borrow, deserialize_with = "text")]
    pub program: Option<Cow<'a, str>>,
    /// The instruction's module (`algebra`).
    #[serde(borrow, deserialize_with = "text")]
    pub module: Option<Cow<'a, str>>,
    /// Non-call tokens: `function`, `end`, `barrier`...
    #[serde(borrow, deserialize_with = "text")]
    pub operator: Option<Cow<'a, str>>,
    /// Duration in µs (on done events, and on every Sep2022 event).
    #[serde(deserialize_with = "lenient_int")]
    pub usec: Option<i64>,
    /// Resident set size, MB.
    #[serde(deserialize_with = "lenient_int")]
    pub rss: Option<i64>,
    /// MB created by the instruction.
    #[serde(deserialize_with = "lenient_int")]
    pub size: Option<i64>,
    /// The server's version.
    #[serde(borrow, deserialize_with = "text")]
    pub version: Option<Cow<'a, str>>,
    /// The short statement (2018).
    #[serde(borrow, deserialize_with = "text")]
    pub short: Option<Cow<'a, str>>,
    /// Program counters this instruction waited for (2018).
    pub prereq: Option<Vec<Lenient>>,
    /// Returned variables (2018).
    #[serde(borrow)]
    pub ret: Option<Vec<RawVar<'a>>>,
    /// Argument variables (2018).
    #[serde(borrow)]
    pub arg: Option<Vec<RawVar<'a>>>,
    /// Returned and argument variables (Jun2020 and later).
    #[serde(borrow)]
    pub args: Option<Vec<RawVar<'a>>>,
    /// The SQL text (Sep2022 `text_to_sql`).
    #[serde(borrow, deserialize_with = "text")]
    pub query: Option<Cow<'a, str>>,
    /// Per-core load (heartbeats).
    pub cpuload: Option<Vec<Lenient>>,
    /// Voluntary context switches (heartbeats).
    #[serde(deserialize_with = "lenient_int")]
    pub nvcsw: Option<i64>,
}

/// One variable of an instruction.
#[derive(Deserialize, Default)]
#[serde(default)]
pub struct RawVar<'a> {
    /// 2018: the variable's name.
    #[serde(borrow, deserialize_with = "text")]
    pub name: Option<Cow<'a, str>>,
    /// Jun2020 and later: the variable's name.
    #[serde(borrow, deserialize_with = "text")]
    pub var: Option<Cow<'a, str>>,
    /// 2018: its position in the instruction.
    #[serde(deserialize_with = "lenient_int")]
    pub index: Option<i64>,
    /// Jun2020 and later: a returned variable at this position.
    #[serde(deserialize_with = "lenient_int")]
    pub ret: Option<i64>,
    /// Jun2020 and later: an argument at this position.
    #[serde(deserialize_with = "lenient_int")]
    pub arg: Option<i64>,
    /// The MAL type (`bat[:oid]`, `int`).
    #[serde(borrow)]
    pub r#type: Option<Cow<'a, str>>,
    /// 1 when the variable is a constant.
    #[serde(rename = "const", deserialize_with = "lenient_int")]
    pub constant: Option<i64>,
    /// A scalar's value.
    #[serde(borrow)]
    pub value: Option<Scalar<'a>>,
    /// 2018: 1 at the variable's end of life; later: the pc of its last use.
    #[serde(deserialize_with = "lenient_int")]
    pub eol: Option<i64>,
    /// A BAT's row count.
    #[serde(deserialize_with = "lenient_int")]
    pub count: Option<i64>,
    /// A BAT's size in bytes.
    #[serde(deserialize_with = "lenient_int")]
    pub size: Option<i64>,
    /// 2018: `persistent` or `transient`.
    #[serde(borrow, deserialize_with = "text")]
    pub kind: Option<Cow<'a, str>>,
}

/// A JSON value where a scalar is expected, kept as Python would print it.
#[derive(Clone, Debug, PartialEq)]
pub enum Scalar<'a> {
    /// A string.
    Text(Cow<'a, str>),
    /// A number, in Python's `str()` spelling.
    Number(String),
    /// `true` / `false`.
    Bool(bool),
    /// An array or object (printed as compact JSON).
    Other(String),
}

impl Scalar<'_> {
    /// What Python's `str()` prints for the value.
    pub fn python_str(&self) -> Cow<'_, str> {
        match self {
            Scalar::Text(s) => Cow::Borrowed(s),
            Scalar::Number(s) | Scalar::Other(s) => Cow::Borrowed(s),
            Scalar::Bool(true) => Cow::Borrowed("True"),
            Scalar::Bool(false) => Cow::Borrowed("False"),
        }
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for Scalar<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Scalar<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a value")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Scalar<'de>, E> {
                Ok(Scalar::Text(Cow::Borrowed(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Scalar<'de>, E> {
                Ok(Scalar::Text(Cow::Owned(v.to_owned())))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Scalar<'de>, E> {
                Ok(Scalar::Number(v.to_string()))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Scalar<'de>, E> {
                Ok(Scalar::Number(v.to_string()))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Scalar<'de>, E> {
                Ok(Scalar::Number(python_float(v)))
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<Scalar<'de>, E> {
                Ok(Scalar::Bool(v))
            }
            fn visit_seq<A: de::SeqAccess<'de>>(self, seq: A) -> Result<Scalar<'de>, A::Error> {
                let v = serde_json::Value::deserialize(de::value::SeqAccessDeserializer::new(seq))?;
                Ok(Scalar::Other(v.to_string()))
            }
            fn visit_map<A: de::MapAccess<'de>>(self, map: A) -> Result<Scalar<'de>, A::Error> {
                let v = serde_json::Value::deserialize(de::value::MapAccessDeserializer::new(map))?;
                Ok(Scalar::Other(v.to_string()))
            }
        }
        d.deserialize_any(V)
    }
}

/// Python's `repr()` of a float: the shortest digits that read back, in
/// positional notation for exponents -4..16 and scientific otherwise.
pub fn python_float(v: f64) -> String {
    if !v.is_finite() {
        return if v.is_nan() {
            "nan".into()
        } else if v > 0.0 {
            "inf".into()
        } else {
            "-inf".into()
        };
    }
    let sci = format!("{v:e}");
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let (sign, mantissa) = mantissa.strip_prefix('-').map_or(("", mantissa), |m| ("-", m));
    let digits: String = mantissa.chars().filter(|c| c.is_ascii_digit()).collect();
    if (-4..16).contains(&exp) {
        let point = exp + 1;
        let body = if point <= 0 {
            format!("0.{}{digits}", "0".repeat((-point) as usize))
        } else if point as usize >= digits.len() {
            format!("{digits}{}.0", "0".repeat(point as usize - digits.len()))
        } else {
            format!("{}.{}", &digits[..point as usize], &digits[point as usize..])
        };
        format!("{sign}{body}")
    } else {
        let frac = if digits.len() > 1 { format!("{}.{}", &digits[..1], &digits[1..]) } else { digits };
        format!("{sign}{frac}e{}{:02}", if exp < 0 { '-' } else { '+' }, exp.abs())
    }
}

/// A number, or a string holding one, as old servers sometimes wrote.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Lenient(pub Option<f64>);

impl Lenient {
    /// The value as an integer (truncated), if it is a number.
    pub fn int(self) -> Option<i64> {
        self.0.filter(|v| v.is_finite()).map(|v| v as i64)
    }
}

impl<'de> Deserialize<'de> for Lenient {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Lenient;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a number")
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Lenient, E> {
                Ok(Lenient(Some(v as f64)))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Lenient, E> {
                Ok(Lenient(Some(v as f64)))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Lenient, E> {
                Ok(Lenient(Some(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Lenient, E> {
                Ok(Lenient(v.trim().parse::<f64>().ok()))
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<Lenient, E> {
                Ok(Lenient(Some(v as u8 as f64)))
            }
            fn visit_unit<E: de::Error>(self) -> Result<Lenient, E> {
                Ok(Lenient(None))
            }
        }
        d.deserialize_any(V)
    }
}

/// An integer field that may be written as a number or a numeric string;
/// anything else reads as absent. Integers keep their full 64-bit value.
fn lenient_int<'de, D: Deserializer<'de>>(d: D) -> Result<Option<i64>, D::Error> {
    struct V;
    impl<'de> Visitor<'de> for V {
        type Value = Option<i64>;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("an integer")
        }
        fn visit_i64<E: de::Error>(self, v: i64) -> Result<Option<i64>, E> {
            Ok(Some(v))
        }
        fn visit_u64<E: de::Error>(self, v: u64) -> Result<Option<i64>, E> {
            Ok(i64::try_from(v).ok())
        }
        fn visit_f64<E: de::Error>(self, v: f64) -> Result<Option<i64>, E> {
            Ok(v.is_finite().then_some(v as i64))
        }
        fn visit_str<E: de::Error>(self, v: &str) -> Result<Option<i64>, E> {
            let v = v.trim();
            Ok(v.parse::<i64>().ok().or_else(|| v.parse::<f64>().ok().filter(|f| f.is_finite()).map(|f| f as i64)))
        }
        fn visit_bool<E: de::Error>(self, v: bool) -> Result<Option<i64>, E> {
            Ok(Some(v as i64))
        }
        fn visit_unit<E: de::Error>(self) -> Result<Option<i64>, E> {
            Ok(None)
        }
        fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<Option<i64>, A::Error> {
            while seq.next_element::<de::IgnoredAny>()?.is_some() {}
            Ok(None)
        }
        fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<Option<i64>, A::Error> {
            while map.next_entry::<de::IgnoredAny, de::IgnoredAny>()?.is_some() {}
            Ok(None)
        }
    }
    d.deserialize_any(V)
}

/// A text field, borrowed from the input when it has no escapes; some
/// generations write a number where text is expected (`sessionid`).
fn text<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Cow<'de, str>>, D::Error> {
    struct V;
    impl<'de> Visitor<'de> for V {
        type Value = Option<Cow<'de, str>>;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a string or a number")
        }
        fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
            Ok(Some(Cow::Borrowed(v)))
        }
        fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
            Ok(Some(Cow::Owned(v.to_owned())))
        }
        fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
            Ok(Some(Cow::Owned(v.to_string())))
        }
        fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
            Ok(Some(Cow::Owned(v.to_string())))
        }
        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
    }
    d.deserialize_any(V)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_print_as_python_prints_them() {
        for (v, s) in [
            (1.5, "1.5"),
            (100.0, "100.0"),
            (0.0001, "0.0001"),
            (0.00001, "1e-05"),
            (1e16, "1e+16"),
            (123456789012345.6, "123456789012345.6"),
            (-2.5e-7, "-2.5e-07"),
            (0.0, "0.0"),
        ] {
            assert_eq!(python_float(v), s, "{v}");
        }
    }

    #[test]
    fn numbers_may_be_strings_and_junk_reads_as_absent() {
        let o: RawObject =
            serde_json::from_str(r#"{"pc":"12","tag":[1],"clk":1.5e3,"thread":null,"usec":"x"}"#).unwrap();
        assert_eq!((o.pc, o.tag, o.clk, o.thread, o.usec), (Some(12), None, Some(1500), None, None));
    }
}
