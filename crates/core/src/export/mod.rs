//! Tables as files: CSV (RFC 4180) and JSON (an array of objects); an
//! `.xlsx` workbook ([`xlsx`]; evobench's statistics use it, in
//! [`crate::formats::evobench::export`]); flame graphs as folded stacks ([`flame`]); any run as a Chrome trace
//! ([`chrome`]), a speedscope file ([`speedscope`]) or a single-file HTML
//! report ([`html`]), all through [`run::export`]; runs as fleet tables in
//! Parquet ([`parquet`]) and as SQL tables ([`sql`]). The workbook and the
//! Parquet files need the `export` feature (their writers are heavy; the
//! page's analysis worker leaves them out); the rows of the tables and
//! their Arrow IPC streams need only `sql`.

pub mod chrome;
pub mod flame;
pub mod html;
#[cfg(feature = "sql")]
pub mod parquet;
pub mod run;
pub mod speedscope;
#[cfg(feature = "sql")]
pub mod sql;
#[cfg(feature = "export")]
pub mod xlsx;

use serde_json::{Map, Value};

/// One CSV field: quoted when it holds a comma, a quote or a line end.
pub(crate) fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_owned()
    }
}

/// A table as CSV: a header line, then one line per row.
pub fn csv(headers: &[&str], rows: &[Vec<String>]) -> String {
    let mut out = headers.iter().map(|h| csv_field(h)).collect::<Vec<_>>().join(",");
    out.push_str("\r\n");
    for row in rows {
        out.push_str(&row.iter().map(|c| csv_field(c)).collect::<Vec<_>>().join(","));
        out.push_str("\r\n");
    }
    out
}

/// A table as JSON: one object per row, keyed by header; cells that are
/// numbers become numbers.
pub fn json(headers: &[&str], rows: &[Vec<String>]) -> String {
    let list: Vec<Value> = rows
        .iter()
        .map(|row| {
            let mut o = Map::new();
            for (h, c) in headers.iter().zip(row) {
                let v = c.parse::<i64>().map(Value::from).unwrap_or_else(|_| Value::String(c.clone()));
                o.insert((*h).to_owned(), v);
            }
            Value::Object(o)
        })
        .collect();
    // A value's pretty text form (`{:#}`) cannot fail, unlike serialising.
    format!("{:#}", Value::Array(list))
}

#[cfg(test)]
mod tests {
    #[test]
    fn csv_quotes_what_needs_quoting_and_json_keeps_numbers() {
        let rows = vec![vec!["a,b".to_owned(), "say \"hi\"".to_owned(), "12".to_owned()]];
        assert_eq!(super::csv(&["x", "y", "n"], &rows), "x,y,n\r\n\"a,b\",\"say \"\"hi\"\"\",12\r\n");
        let v: serde_json::Value = serde_json::from_str(&super::json(&["x", "y", "n"], &rows)).unwrap();
        assert_eq!(v[0]["n"], 12);
        assert_eq!(v[0]["x"], "a,b");
    }
}
