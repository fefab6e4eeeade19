//! The analysis worker's entry point (loaded by `worker_loader.js`).

fn main() {
    longpole::worker::start();
}
