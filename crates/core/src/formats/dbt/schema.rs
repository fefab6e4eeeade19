//! Which dbt artifact a document is and in which version, from its
//! `metadata.dbt_schema_version`
//! (`https://schemas.getdbt.com/dbt/run-results/v6.json`).

/// A dbt artifact this reader knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Artifact {
    /// `run_results.json`, with its schema's version.
    RunResults(u32),
    /// `manifest.json`, with its schema's version.
    Manifest(u32),
}

/// The run-results versions read (dbt-core 1.3 to 1.11 write v4 to v6).
pub const RUN_RESULTS: std::ops::RangeInclusive<u32> = 4..=6;
/// The manifest versions read (dbt-core 1.6 to 1.11 write v10 to v12; 1.5 v9).
pub const MANIFEST: std::ops::RangeInclusive<u32> = 9..=12;

/// The prefix every dbt schema URL shares.
pub const PREFIX: &str = "https://schemas.getdbt.com/dbt/";

/// The artifact a schema URL names, whatever its version; `None` for
/// another dbt artifact (`catalog`, `sources`) or something else.
pub fn artifact(url: &str) -> Option<Artifact> {
    let rest = url.strip_prefix(PREFIX)?;
    let (name, version) = rest.split_once("/v")?;
    let version: u32 = version.strip_suffix(".json")?.parse().ok()?;
    match name {
        "run-results" => Some(Artifact::RunResults(version)),
        "manifest" => Some(Artifact::Manifest(version)),
        _ => None,
    }
}

impl Artifact {
    /// Whether this version is one the reader knows.
    pub fn supported(self) -> bool {
        match self {
            Artifact::RunResults(v) => RUN_RESULTS.contains(&v),
            Artifact::Manifest(v) => MANIFEST.contains(&v),
        }
    }

    /// The file's usual name.
    pub fn file(self) -> &'static str {
        match self {
            Artifact::RunResults(_) => "run_results.json",
            Artifact::Manifest(_) => "manifest.json",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schema_urls_name_the_artifact_and_version() {
        let url = |s: &str| format!("{PREFIX}{s}");
        assert_eq!(artifact(&url("run-results/v6.json")), Some(Artifact::RunResults(6)));
        assert_eq!(artifact(&url("manifest/v12.json")), Some(Artifact::Manifest(12)));
        assert_eq!(artifact(&url("catalog/v1.json")), None);
        assert_eq!(artifact("https://example.com/run-results/v6.json"), None);
        assert!(Artifact::RunResults(4).supported() && !Artifact::RunResults(3).supported());
        assert!(Artifact::Manifest(9).supported() && !Artifact::Manifest(13).supported());
    }
}
