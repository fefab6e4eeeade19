//! An `.xlsx` workbook from tables: one worksheet per [`Sheet`], text as
//! strings, numbers as numbers, the first row frozen, written by
//! `rust_xlsxwriter`. Its creation time is fixed, so the same tables give
//! the same bytes (and no clock is read: WebAssembly has none).

use rust_xlsxwriter::{DocProperties, ExcelDateTime, Workbook, XlsxError};

/// One cell.
#[derive(Clone, Debug, PartialEq)]
pub enum Cell {
    /// Nothing.
    Empty,
    /// Text.
    Text(String),
    /// A number (a NaN or an infinity is left out: Excel has none).
    Number(f64),
}

/// One worksheet.
#[derive(Clone, Debug, PartialEq)]
pub struct Sheet {
    /// Its name (at most 31 characters; `[]:*?/\` are replaced).
    pub name: String,
    /// Width of the first column, in characters.
    pub first_column_width: f64,
    /// Its rows; the first is the header, frozen.
    pub rows: Vec<Vec<Cell>>,
}

/// A name Excel takes for a sheet: at most 31 characters, none of
/// `[]:*?/\`, not starting or ending with `'`, not empty.
pub fn sheet_name(name: &str) -> String {
    let clean: String = name.chars().map(|c| if "[]:*?/\\".contains(c) { '_' } else { c }).take(31).collect();
    let clean = clean.trim_matches('\'');
    if clean.is_empty() {
        "sheet".to_owned()
    } else {
        clean.to_owned()
    }
}

/// The workbook's bytes, or why they could not be written (past Excel's
/// limits: 1,048,576 rows, 16,384 columns, 32,767 characters in a cell).
pub fn workbook(sheets: &[Sheet]) -> Result<Vec<u8>, XlsxError> {
    let mut book = Workbook::new();
    let created = ExcelDateTime::from_ymd(2000, 1, 1)?;
    book.set_properties(&DocProperties::new().set_creation_datetime(&created));
    for sheet in sheets {
        let ws = book.add_worksheet();
        ws.set_name(sheet_name(&sheet.name))?;
        ws.set_column_width(0, sheet.first_column_width)?;
        ws.set_freeze_panes(1, 0)?;
        for (r, row) in sheet.rows.iter().enumerate() {
            let r = u32::try_from(r).map_err(|_| XlsxError::RowColumnLimitError)?;
            for (c, cell) in row.iter().enumerate() {
                let c = u16::try_from(c).map_err(|_| XlsxError::RowColumnLimitError)?;
                match cell {
                    Cell::Empty => {}
                    Cell::Text(t) => {
                        ws.write_string(r, c, t)?;
                    }
                    Cell::Number(n) if n.is_finite() => {
                        ws.write_number(r, c, *n)?;
                    }
                    Cell::Number(_) => {}
                }
            }
        }
    }
    book.save_to_buffer()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sheet_names_are_made_acceptable() {
        assert_eq!(sheet_name("a/b:c"), "a_b_c");
        assert_eq!(sheet_name("'quoted'"), "quoted");
        assert_eq!(sheet_name(""), "sheet");
        assert_eq!(sheet_name(&"x".repeat(40)).len(), 31);
    }

    #[test]
    fn the_same_tables_give_the_same_bytes() {
        let sheet = Sheet {
            name: "real time".into(),
            first_column_width: 40.0,
            rows: vec![vec![Cell::Text("x".into()), Cell::Number(3.0), Cell::Number(f64::NAN)]],
        };
        let other = Sheet { name: "cpu time".into(), ..sheet.clone() };
        let bytes = workbook(&[sheet.clone(), other.clone()]).unwrap();
        assert_eq!(&bytes[..2], b"PK");
        assert_eq!(bytes, workbook(&[sheet, other]).unwrap());
    }
}
