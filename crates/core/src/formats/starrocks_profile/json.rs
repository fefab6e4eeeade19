//! The JSON form (FE `profile_info_format=json`): one object per node,
//! keyed by the node's name, holding its info strings and counters as
//! formatted strings (`"187.644us"`) and its child nodes as objects, in
//! print order. Child counters are flattened into their node; only
//! `__MIN_OF_X` / `__MAX_OF_X` are put back under `X`. The tree gets the
//! indentation the text form would have; the JSON text itself is what
//! `longpole rewrite` writes back.

use super::tree::{Counter, Item, Node, Profile};
use super::value::Value;
use super::ID;
use crate::diagnostics::{Diagnostics, Position, Severity};
use crate::error::FormatError;
use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};
use std::fmt;

/// A JSON value with object keys in document order.
enum Entry {
    /// A string.
    Text(String),
    /// An object.
    Object(Vec<(String, Entry)>),
    /// Anything else, as JSON text.
    Other(String),
}

impl<'de> Deserialize<'de> for Entry {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Entry;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON value")
            }
            fn visit_str<E>(self, v: &str) -> Result<Entry, E> {
                Ok(Entry::Text(v.to_owned()))
            }
            fn visit_string<E>(self, v: String) -> Result<Entry, E> {
                Ok(Entry::Text(v))
            }
            fn visit_bool<E>(self, v: bool) -> Result<Entry, E> {
                Ok(Entry::Other(v.to_string()))
            }
            fn visit_i64<E>(self, v: i64) -> Result<Entry, E> {
                Ok(Entry::Other(v.to_string()))
            }
            fn visit_u64<E>(self, v: u64) -> Result<Entry, E> {
                Ok(Entry::Other(v.to_string()))
            }
            fn visit_f64<E>(self, v: f64) -> Result<Entry, E> {
                Ok(Entry::Other(v.to_string()))
            }
            fn visit_unit<E>(self) -> Result<Entry, E> {
                Ok(Entry::Other("null".to_owned()))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Entry, A::Error> {
                let mut items = Vec::new();
                while let Some(v) = seq.next_element::<serde_json::Value>()? {
                    items.push(v);
                }
                Ok(Entry::Other(serde_json::Value::Array(items).to_string()))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Entry, A::Error> {
                let mut entries = Vec::new();
                while let Some((k, v)) = map.next_entry::<String, Entry>()? {
                    entries.push((k, v));
                }
                Ok(Entry::Object(entries))
            }
        }
        d.deserialize_any(V)
    }
}

/// Reads a whole JSON profile.
pub fn read(json: Vec<u8>, diags: &mut Diagnostics) -> Result<Profile, FormatError> {
    let top: Entry = serde_json::from_slice(&json).map_err(|e| {
        FormatError::new(ID.title(), Position::Whole, format!("the JSON profile is cut or broken ({e})"), &json)
    })?;
    let Entry::Object(entries) = top else {
        return Err(FormatError::new(ID.title(), Position::Whole, "a JSON profile is an object", &json));
    };
    let mut entries = entries.into_iter();
    let root = match entries.next() {
        Some((name, Entry::Object(body))) => Some(node(name, 0, body)),
        _ => None,
    };
    if entries.next().is_some() {
        diags.report(
            Severity::Warning,
            "starrocks.json-extra",
            Position::Whole,
            "the JSON profile has more than one top node; only the first is read",
        );
    }
    let lines = json.iter().filter(|&&b| b == b'\n').count() as u64;
    Ok(Profile {
        root,
        before: Vec::new(),
        trailing_blank: 0,
        final_newline: json.last() == Some(&b'\n'),
        json: Some(json),
        lines,
    })
}

fn counter(name: String, text: String, indent: usize) -> Counter {
    Counter { value: Value::parse(&text), text: Some(text), name, indent, line: 0, cr: false, children: Vec::new() }
}

fn node(name: String, indent: usize, body: Vec<(String, Entry)>) -> Node {
    let mut n = Node { name, indent, line: 0, cr: false, items: Vec::new() };
    for (key, entry) in body {
        match entry {
            Entry::Object(body) => n.items.push(Item::Node(node(key, indent + 2, body))),
            Entry::Text(text) | Entry::Other(text) => {
                let of = key.strip_prefix("__MIN_OF_").or_else(|| key.strip_prefix("__MAX_OF_")).map(str::to_owned);
                let owner = of.and_then(|of| {
                    n.items.iter_mut().rev().find_map(|i| match i {
                        Item::Counter(c) if c.name == of => Some(c),
                        _ => None,
                    })
                });
                match owner {
                    Some(owner) => owner.children.push(counter(key, text, indent + 5)),
                    None => n.items.push(Item::Counter(counter(key, text, indent + 3))),
                }
            }
        }
    }
    n
}
