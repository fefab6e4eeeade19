//! The fields of an event that are read, as serde_json reads them. This is
//! the reference: [`super::fast`] reads the common plain form without serde
//! and must give the same [`RawEvent`] (a property test checks it).

use serde::de::{self, Deserializer, Visitor};
use serde::Deserialize;
use serde_json::value::RawValue;
use std::borrow::Cow;
use std::fmt;

/// A number, or a string holding one (Hermes writes `"ts": "11550183666"`).
#[derive(Clone, Copy, Debug)]
pub(super) struct Num(pub f64);

/// The same number, bit for bit (NaN equals NaN, 0 differs from -0).
impl PartialEq for Num {
    fn eq(&self, other: &Self) -> bool {
        self.0.to_bits() == other.0.to_bits()
    }
}

impl<'de> Deserialize<'de> for Num {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Num;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a number")
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Num, E> {
                Ok(Num(v))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Num, E> {
                Ok(Num(v as f64))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Num, E> {
                Ok(Num(v as f64))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Num, E> {
                number_text(v).ok_or_else(|| E::custom("not a number"))
            }
        }
        d.deserialize_any(V)
    }
}

/// The number a string holds, as [`Num`] reads it.
pub(super) fn number_text(v: &str) -> Option<Num> {
    v.trim().parse().ok().map(Num)
}

/// An id as text: a string's content, a number as written, a bool.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct IdText<'a>(pub Cow<'a, str>);

impl IdText<'_> {
    /// The text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for IdText<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = IdText<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string or a number")
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<IdText<'de>, E> {
                Ok(IdText(Cow::Owned(v.to_string())))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<IdText<'de>, E> {
                Ok(IdText(Cow::Owned(v.to_string())))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<IdText<'de>, E> {
                Ok(IdText(Cow::Owned(v.to_string())))
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<IdText<'de>, E> {
                Ok(IdText(Cow::Borrowed(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<IdText<'de>, E> {
                Ok(IdText(Cow::Owned(v.to_owned())))
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<IdText<'de>, E> {
                Ok(IdText(Cow::Borrowed(if v { "true" } else { "false" })))
            }
        }
        d.deserialize_any(V)
    }
}

/// `id2`: `{"local": …}` or `{"global": …}`.
#[derive(Deserialize, Debug, Default, PartialEq)]
pub(super) struct Id2<'a> {
    #[serde(borrow)]
    pub local: Option<IdText<'a>>,
    #[serde(borrow)]
    pub global: Option<IdText<'a>>,
}

/// `args` as written (valid JSON, not `null`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Args<'a>(pub &'a str);

impl<'de: 'a, 'a> Deserialize<'de> for Args<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        <&RawValue>::deserialize(d).map(|r| Args(r.get()))
    }
}

/// The fields of an event that are read.
#[derive(Deserialize, Debug, Default, PartialEq)]
pub(super) struct RawEvent<'a> {
    #[serde(borrow)]
    pub ph: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub name: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub cat: Option<Cow<'a, str>>,
    pub ts: Option<Num>,
    pub dur: Option<Num>,
    pub tdur: Option<Num>,
    #[serde(borrow)]
    pub pid: Option<IdText<'a>>,
    #[serde(borrow)]
    pub tid: Option<IdText<'a>>,
    #[serde(borrow)]
    pub args: Option<Args<'a>>,
    #[serde(borrow)]
    pub id: Option<IdText<'a>>,
    #[serde(borrow)]
    pub id2: Option<Id2<'a>>,
    #[serde(borrow)]
    pub scope: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub bp: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub s: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub bind_id: Option<IdText<'a>>,
    pub flow_in: Option<bool>,
    pub flow_out: Option<bool>,
}

/// A sample of the `samples` array.
#[derive(Deserialize, Debug)]
pub(super) struct RawSample<'a> {
    #[serde(borrow)]
    pub pid: Option<IdText<'a>>,
    #[serde(borrow)]
    pub tid: Option<IdText<'a>>,
    pub ts: Option<Num>,
    #[serde(borrow)]
    pub sf: Option<IdText<'a>>,
}

/// A frame of `stackFrames`.
#[derive(Deserialize, Debug)]
pub(super) struct RawFrame<'a> {
    #[serde(borrow)]
    pub name: Option<IdText<'a>>,
    #[serde(borrow)]
    pub category: Option<IdText<'a>>,
    #[serde(borrow)]
    pub parent: Option<IdText<'a>>,
}
