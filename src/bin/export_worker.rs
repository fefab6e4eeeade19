//! The export worker's entry point (loaded by `export_worker_loader.js`,
//! only when the page asks for the Parquet tables or the workbook).

fn main() {
    longpole::export_worker::start();
}
