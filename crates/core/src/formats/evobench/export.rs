//! evobench's outputs as files: the statistics as CSV, and the evaluator's
//! workbook (one sheet per timing kind) as `.xlsx`.

use crate::export::csv_field;
#[cfg(feature = "export")]
use crate::export::xlsx::{workbook, Cell, Sheet};
use crate::formats::evobench::analysis::{Table, PERCENTILES};
use crate::formats::evobench::TimingKind;
#[cfg(feature = "export")]
use rust_xlsxwriter::XlsxError;
use std::fmt::Write;

/// The header of the statistics columns: count, sum, mean, stdev, median, p0 … p100.
fn stat_headers() -> Vec<String> {
    let mut h: Vec<String> = ["count", "sum", "mean", "stdev", "median"].map(String::from).to_vec();
    h.extend((0..PERCENTILES).map(|q| format!("p{q}")));
    h
}

/// The statistics of every kind as CSV: `kind,mode,path,count,sum,mean,stdev,median,p0,…,p100`;
/// kinds in sheet order, rows in the evaluator's order; rows that only count
/// have the count and empty statistics. Times in the kind's unit (ns, µs).
pub fn statistics_csv(table: &Table) -> String {
    let mut out = String::from("kind,mode,path,");
    out.push_str(&stat_headers().join(","));
    out.push_str("\r\n");
    for kind in TimingKind::ALL {
        for r in &table.rows {
            let _ = write!(out, "{},{},{},{}", kind.name(), r.mode.name(), csv_field(&r.path), r.count(kind));
            match &r.stats[kind.index()] {
                Some(s) => {
                    for v in [s.sum, s.mean, s.stdev, s.median].iter().chain(&s.percentiles) {
                        let _ = write!(out, ",{v}");
                    }
                }
                None => out.push_str(&",".repeat(4 + PERCENTILES)),
            }
            out.push_str("\r\n");
        }
    }
    out
}

#[cfg(feature = "export")]
/// The evaluator's workbook ([`statistics_sheets`]); an error only past
/// Excel's limits (a million rows).
pub fn statistics_xlsx(table: &Table) -> Result<Vec<u8>, XlsxError> {
    workbook(&statistics_sheets(table))
}

#[cfg(feature = "export")]
/// The evaluator's workbook's sheets: one per kind (`real time`, `cpu
/// time`, `sys time`, `ctx switches`), a row per probe or path with count,
/// sum, mean, stdev, median and the percentiles 0 … 100, in the kind's unit.
pub fn statistics_sheets(table: &Table) -> Vec<Sheet> {
    TimingKind::ALL
        .iter()
        .map(|&kind| {
            let mut header = vec![Cell::Text(format!(
                "Probe name or path ({}; A: across all threads, N: by thread number, ..R: reversed)",
                kind.name()
            ))];
            header.extend(stat_headers().into_iter().map(Cell::Text));
            let mut rows = vec![header];
            for r in &table.rows {
                let mut row = vec![Cell::Text(r.path.clone()), Cell::Number(r.count(kind) as f64)];
                if let Some(s) = &r.stats[kind.index()] {
                    row.extend(
                        [s.sum, s.mean, s.stdev, s.median]
                            .iter()
                            .chain(&s.percentiles)
                            .map(|&v| Cell::Number(v as f64)),
                    );
                }
                rows.push(row);
            }
            Sheet { name: kind.title().to_owned(), first_column_width: 80.0, rows }
        })
        .collect()
}
