//! A minimal `.xlsx` workbook (Office Open XML, SpreadsheetML): one
//! worksheet per [`Sheet`], text as inline strings, numbers as numbers, the
//! first row frozen. Written through the `zip` crate (deflate in pure
//! Rust), with fixed timestamps, so the same tables give the same bytes.

use crate::render::escape;
use std::fmt::Write as _;
use std::io::{Cursor, Write};
use zip::result::ZipError;
use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, ZipWriter};

/// One cell.
#[derive(Clone, Debug, PartialEq)]
pub enum Cell {
    /// Nothing.
    Empty,
    /// Text.
    Text(String),
    /// A number.
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

const MAIN: &str = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
const REL: &str = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const PKG_REL: &str = "http://schemas.openxmlformats.org/package/2006/relationships";
const XML: &str = "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n";

/// A column's letters: 0 → A, 25 → Z, 26 → AA.
fn column(mut i: usize) -> String {
    let mut s = Vec::new();
    loop {
        s.push(b'A' + (i % 26) as u8);
        if i < 26 {
            break;
        }
        i = i / 26 - 1;
    }
    s.reverse();
    s.into_iter().map(char::from).collect()
}

fn sheet_name(name: &str) -> String {
    let clean: String = name.chars().map(|c| if "[]:*?/\\".contains(c) { '_' } else { c }).take(31).collect();
    if clean.is_empty() {
        "sheet".to_owned()
    } else {
        clean
    }
}

fn worksheet(sheet: &Sheet) -> String {
    let mut x = format!(
        "{XML}<worksheet xmlns=\"{MAIN}\"><sheetViews><sheetView workbookViewId=\"0\"><pane ySplit=\"1\" topLeftCell=\"A2\" activePane=\"bottomLeft\" state=\"frozen\"/></sheetView></sheetViews><cols><col min=\"1\" max=\"1\" width=\"{}\" customWidth=\"1\"/></cols><sheetData>",
        sheet.first_column_width
    );
    for (r, row) in sheet.rows.iter().enumerate() {
        let _ = write!(x, "<row r=\"{}\">", r + 1);
        for (c, cell) in row.iter().enumerate() {
            let at = format!("{}{}", column(c), r + 1);
            match cell {
                Cell::Empty => {}
                Cell::Text(t) => {
                    let _ = write!(
                        x,
                        "<c r=\"{at}\" t=\"inlineStr\"><is><t xml:space=\"preserve\">{}</t></is></c>",
                        escape(t)
                    );
                }
                Cell::Number(n) if n.is_finite() => {
                    let _ = write!(x, "<c r=\"{at}\"><v>{n}</v></c>");
                }
                Cell::Number(_) => {}
            }
        }
        x.push_str("</row>");
    }
    x.push_str("</sheetData></worksheet>");
    x
}

/// The workbook's bytes, or why zip could not write them.
pub fn workbook(sheets: &[Sheet]) -> Result<Vec<u8>, ZipError> {
    let mut types = format!(
        "{XML}<Types xmlns=\"http://schemas.openxmlformats.org/package/2006/content-types\"><Default Extension=\"rels\" ContentType=\"application/vnd.openxmlformats-package.relationships+xml\"/><Default Extension=\"xml\" ContentType=\"application/xml\"/><Override PartName=\"/xl/workbook.xml\" ContentType=\"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml\"/>"
    );
    let mut book = format!("{XML}<workbook xmlns=\"{MAIN}\" xmlns:r=\"{REL}\"><sheets>");
    let mut book_rels = format!("{XML}<Relationships xmlns=\"{PKG_REL}\">");
    for (i, s) in sheets.iter().enumerate().map(|(i, s)| (i + 1, s)) {
        let _ = write!(types, "<Override PartName=\"/xl/worksheets/sheet{i}.xml\" ContentType=\"application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml\"/>");
        let _ = write!(book, "<sheet name=\"{}\" sheetId=\"{i}\" r:id=\"rId{i}\"/>", escape(&sheet_name(&s.name)));
        let _ = write!(
            book_rels,
            "<Relationship Id=\"rId{i}\" Type=\"{REL}/worksheet\" Target=\"worksheets/sheet{i}.xml\"/>"
        );
    }
    types.push_str("</Types>");
    book.push_str("</sheets></workbook>");
    book_rels.push_str("</Relationships>");
    let rels = format!(
        "{XML}<Relationships xmlns=\"{PKG_REL}\"><Relationship Id=\"rId1\" Type=\"{REL}/officeDocument\" Target=\"xl/workbook.xml\"/></Relationships>"
    );
    let mut parts: Vec<(String, String)> = vec![
        ("[Content_Types].xml".to_owned(), types),
        ("_rels/.rels".to_owned(), rels),
        ("xl/workbook.xml".to_owned(), book),
        ("xl/_rels/workbook.xml.rels".to_owned(), book_rels),
    ];
    parts.extend(sheets.iter().enumerate().map(|(i, s)| (format!("xl/worksheets/sheet{}.xml", i + 1), worksheet(s))));
    let mut zip = ZipWriter::new(Cursor::new(Vec::new()));
    let options = SimpleFileOptions::default().compression_method(CompressionMethod::Deflated);
    for (name, text) in parts {
        // Writing into memory fails only on zip's own size limits (4 GiB without zip64).
        zip.start_file(name, options)?;
        zip.write_all(text.as_bytes())?;
    }
    Ok(zip.finish()?.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_and_escapes() {
        assert_eq!([column(0), column(25), column(26), column(27 * 26)], ["A", "Z", "AA", "AAA"]);
        assert_eq!(sheet_name("a/b:c"), "a_b_c");
    }

    #[test]
    fn a_workbook_is_a_zip_with_every_part() {
        let sheet = Sheet {
            name: "real time".into(),
            first_column_width: 40.0,
            rows: vec![vec![Cell::Text("x".into()), Cell::Number(3.0)]],
        };
        let bytes = workbook(&[sheet.clone(), sheet]).unwrap();
        assert_eq!(&bytes[..2], b"PK");
        let text = String::from_utf8_lossy(&bytes);
        for part in ["[Content_Types].xml", "xl/workbook.xml", "xl/worksheets/sheet2.xml"] {
            assert!(text.contains(part), "{part}");
        }
    }
}
