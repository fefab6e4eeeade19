//! A table too big to send whole (a comparison's hundreds of thousands of
//! keys) stays where it was made, and the page asks for what it shows: the
//! rows a search keeps, in the order a column gives, as many as are shown
//! ([`TableQuery`] → [`TablePage`]). The order and the search are the same
//! as for a table drawn whole ([`order`], used by both), so that the two
//! cannot differ; an export takes every row in that order ([`raw_rows`]).

use super::table::{Row, Table};
use serde::{Deserialize, Serialize};

/// The part of a table a page shows.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TableQuery {
    /// The column sorted by, and whether descending; `None`: the natural order.
    pub sort: Option<(usize, bool)>,
    /// What the rows' haystacks must contain, lower-case (empty: every row).
    pub search: String,
    /// Rows wanted, from the first.
    pub limit: usize,
}

/// The rows a [`TableQuery`] asked for.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TablePage {
    /// What was asked.
    pub query: TableQuery,
    /// The first `query.limit` rows the search keeps, in its order.
    pub rows: Vec<Row>,
    /// How many rows the search keeps.
    pub matching: usize,
}

/// The indices of the rows of `t` that contain `search` (lower-case) in
/// their haystack, sorted by column `sort` (stable: ties keep the natural
/// order), or in the natural order.
pub fn order(t: &Table, sort: Option<(usize, bool)>, search: &str) -> Vec<u32> {
    let mut rows: Vec<u32> = (0..t.rows.len() as u32)
        .filter(|&i| search.is_empty() || t.rows[i as usize].haystack.contains(search))
        .collect();
    if let Some((col, desc)) = sort {
        let cell = |i: u32| t.rows[i as usize].cells.get(col);
        rows.sort_by(|&a, &b| {
            let o = match (cell(a), cell(b)) {
                (Some(x), Some(y)) => x.order(y),
                (x, y) => x.is_some().cmp(&y.is_some()),
            };
            if desc {
                o.reverse()
            } else {
                o
            }
        });
    }
    rows
}

/// The page of `t` that `query` asks for, given the rows `order` gave for
/// its sort and search.
pub fn page(t: &Table, ordered: &[u32], query: TableQuery) -> TablePage {
    let rows: Vec<Row> = ordered.iter().take(query.limit).map(|&i| t.rows[i as usize].clone()).collect();
    TablePage { query, rows, matching: ordered.len() }
}

/// What an export of the rows `ordered` writes: each cell's raw text.
pub fn raw_rows<'t>(rows: impl Iterator<Item = &'t Row>) -> Vec<Vec<String>> {
    rows.map(|r| r.cells.iter().map(|c| c.raw().to_owned()).collect()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view::table::{count, text, Row};

    fn table() -> Table {
        let rows = ["b.o", "a.o", "c.h", "a.h"]
            .iter()
            .zip([3, 1, 2, 1])
            .map(|(name, n)| Row::new(vec![text(name), count(n)], name))
            .collect();
        Table::new("t", "T", &["name", "n"], rows)
    }

    #[test]
    fn a_page_is_the_search_in_the_columns_order_then_the_first_rows() {
        let t = table();
        assert_eq!(order(&t, None, ""), [0, 1, 2, 3]);
        assert_eq!(order(&t, Some((0, false)), ""), [3, 1, 0, 2]);
        // Ties keep the natural order, descending too.
        assert_eq!(order(&t, Some((1, false)), ""), [1, 3, 2, 0]);
        assert_eq!(order(&t, Some((1, true)), ""), [0, 2, 1, 3]);
        assert_eq!(order(&t, Some((1, true)), ".o"), [0, 1]);
        let q = TableQuery { sort: Some((1, true)), search: ".h".into(), limit: 1 };
        let p = page(&t, &order(&t, q.sort, &q.search), q.clone());
        assert_eq!((p.matching, p.rows.len(), p.rows[0].cells[0].show.as_str(), p.query), (2, 1, "c.h", q));
        assert_eq!(raw_rows(p.rows.iter()), [["c.h", "2"]]);
    }
}
