//! The bundled samples behind "Try a sample", one per format, each a file
//! under `samples/` served with the app and credited in the README.

/// A bundled sample.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    /// Stable id, used in test hooks.
    pub id: &'static str,
    /// Button label.
    pub label: &'static str,
    /// File name under `samples/`.
    pub file: &'static str,
    /// Where it comes from.
    pub credit: &'static str,
}

/// Every sample, in menu order.
pub const SAMPLES: &[Sample] = &[Sample {
    id: "distbuild",
    label: "distbuild build",
    file: "distbuild-example.log",
    credit: "hand-made distbuild log with ya's own results (shared corpus)",
}];

/// The URL of a sample, relative to the page so any base path works.
pub fn url(sample: &Sample) -> String {
    format!("samples/{}", sample.file)
}
