//! A profile as the tree it prints: nodes (`Fragment 0:`) holding counters
//! (`- ActiveTime: 538.833us`) with their child counters, in the order
//! written, with every line's indentation, so that [`Profile::write`] gives
//! the text back byte for byte.

use super::value::Value;

/// A whole profile.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Profile {
    /// The top node (`Query`); `None` for an input with no node line.
    pub root: Option<Node>,
    /// Lines before the first node (blank or not understood).
    pub before: Vec<Stray>,
    /// Blank lines after the last line with text.
    pub trailing_blank: usize,
    /// The last line ends with a newline.
    pub final_newline: bool,
    /// Read from the JSON form; [`Profile::json`] holds its text.
    pub json: Option<Vec<u8>>,
    /// Lines read.
    pub lines: u64,
}

/// A node line (`<indent><Name>:`) and what it holds.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Node {
    /// Its name, without the colon (`Pipeline (id=0)`).
    pub name: String,
    /// Spaces before the name.
    pub indent: usize,
    /// Its line, from 1 (0 when read from JSON).
    pub line: u64,
    /// The line ended with `\r\n`.
    pub cr: bool,
    /// Counters, child nodes and stray lines, in the order written.
    pub items: Vec<Item>,
}

/// One entry of a node.
#[derive(Clone, Debug, PartialEq)]
pub enum Item {
    /// A counter or info string, with its children.
    Counter(Counter),
    /// A child node.
    Node(Node),
    /// A line that is neither (blank, or not understood).
    Stray(Stray),
}

/// A counter line (`<indent>- Name: value`) or a flag (`- IsSubordinate`).
#[derive(Clone, Debug, PartialEq)]
pub struct Counter {
    /// Its name as written (`__MAX_OF_ActiveTime`, `ShuffleNum__DUP(0)`).
    pub name: String,
    /// The text after `: `, continuation lines joined with `\n`; `None` for a flag.
    pub text: Option<String>,
    /// The value read from the text.
    pub value: Value,
    /// Spaces before the `-`.
    pub indent: usize,
    /// Its line, from 1 (0 when read from JSON).
    pub line: u64,
    /// The (last) line ended with `\r\n`.
    pub cr: bool,
    /// Child counters (2 more spaces): `__MIN_OF_` / `__MAX_OF_` and
    /// sub-timers such as `InputEmptyTime` under `PendingTime`.
    pub children: Vec<Counter>,
}

/// A line kept as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stray {
    /// Its text (a `\r` at the end included).
    pub text: String,
    /// Its line, from 1.
    pub line: u64,
}

impl Node {
    /// The counters directly under the node, in order.
    pub fn counters(&self) -> impl Iterator<Item = &Counter> {
        self.items.iter().filter_map(|i| match i {
            Item::Counter(c) => Some(c),
            _ => None,
        })
    }

    /// The child nodes, in order.
    pub fn children(&self) -> impl Iterator<Item = &Node> {
        self.items.iter().filter_map(|i| match i {
            Item::Node(n) => Some(n),
            _ => None,
        })
    }

    /// The first child node named `name`.
    pub fn child(&self, name: &str) -> Option<&Node> {
        self.children().find(|n| n.name == name)
    }

    /// The first counter named `name`, at any depth of the counter trees.
    pub fn counter(&self, name: &str) -> Option<&Counter> {
        self.counters().find_map(|c| c.find(name))
    }

    /// The time counter `name`, ns.
    pub fn time(&self, name: &str) -> Option<i64> {
        self.counter(name).and_then(|c| c.value.time())
    }

    /// The info string or value text of `name`.
    pub fn text(&self, name: &str) -> Option<&str> {
        self.counter(name).and_then(|c| c.text.as_deref())
    }
}

impl Counter {
    /// This counter or the first below it named `name`.
    pub fn find(&self, name: &str) -> Option<&Counter> {
        if self.name == name {
            return Some(self);
        }
        self.children.iter().find_map(|c| c.find(name))
    }

    /// Every counter of this tree, this one first.
    pub fn walk<'a>(&'a self, each: &mut impl FnMut(&'a Counter)) {
        each(self);
        for c in &self.children {
            c.walk(each);
        }
    }
}

fn push_line(out: &mut String, text: &str, cr: bool) {
    out.push_str(text);
    if cr {
        out.push('\r');
    }
    out.push('\n');
}

impl Counter {
    fn write(&self, out: &mut String) {
        out.extend(std::iter::repeat_n(' ', self.indent));
        out.push_str("- ");
        out.push_str(&self.name);
        if let Some(text) = &self.text {
            out.push_str(": ");
            out.push_str(text);
        }
        if self.cr {
            out.push('\r');
        }
        out.push('\n');
        for c in &self.children {
            c.write(out);
        }
    }
}

impl Node {
    fn write(&self, out: &mut String) {
        out.extend(std::iter::repeat_n(' ', self.indent));
        out.push_str(&self.name);
        push_line(out, ":", self.cr);
        for item in &self.items {
            match item {
                Item::Counter(c) => c.write(out),
                Item::Node(n) => n.write(out),
                Item::Stray(s) => push_line(out, &s.text, false),
            }
        }
    }
}

impl Profile {
    /// The profile as the text it was read from: byte for byte for a text
    /// profile in UTF-8; for the JSON form, its JSON.
    pub fn write(&self) -> Vec<u8> {
        if let Some(json) = &self.json {
            return json.clone();
        }
        let mut out = String::new();
        for s in &self.before {
            push_line(&mut out, &s.text, false);
        }
        if let Some(root) = &self.root {
            root.write(&mut out);
        }
        for _ in 0..self.trailing_blank {
            out.push('\n');
        }
        if !self.final_newline && out.ends_with('\n') {
            out.pop();
        }
        out.into_bytes()
    }

    /// The `Summary` node.
    pub fn summary(&self) -> Option<&Node> {
        self.root.as_ref()?.child("Summary")
    }

    /// The `Execution` node (`Execution Profile <id>` in older versions).
    pub fn execution(&self) -> Option<&Node> {
        self.root.as_ref()?.children().find(|n| n.name == "Execution" || n.name.starts_with("Execution Profile"))
    }
}
