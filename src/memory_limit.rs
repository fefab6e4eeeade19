//! A lowered memory limit for tests: `?memory-limit=BYTES` in the page's
//! URL (`tests/e2e/memory-limit.test.mjs` uses it), sent with every
//! request that has a worker read a run, so that it stops sooner than at
//! its default limit.

/// The limit `?memory-limit=BYTES` asks for; none otherwise (the worker's
/// default limit).
pub fn memory_limit_hook() -> Option<u64> {
    let search = web_sys::window()?.location().search().ok()?;
    let value = search.trim_start_matches('?').split('&').find_map(|kv| kv.strip_prefix("memory-limit="))?;
    value.parse().ok()
}
