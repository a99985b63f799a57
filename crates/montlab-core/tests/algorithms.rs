//! `NATIVE_ALGORITHMS` must list exactly the ids whose `layers` contain "native" in the
//! registry, python/montlab/algorithms.toml (the single source of algorithm ids).

use std::collections::BTreeSet;
use std::path::Path;

#[test]
fn native_algorithms_match_registry() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../python/montlab/algorithms.toml");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let registry: toml::Table =
        toml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let algorithms = registry
        .get("algorithms")
        .and_then(|a| a.as_table())
        .unwrap_or_else(|| panic!("{}: no [algorithms] table", path.display()));

    let mut in_registry = BTreeSet::new();
    for (id, entry) in algorithms {
        let layers = entry
            .get("layers")
            .and_then(|l| l.as_array())
            .unwrap_or_else(|| panic!("algorithms.{id}: no layers array"));
        if layers.iter().any(|l| l.as_str() == Some("native")) {
            in_registry.insert(id.as_str());
        }
    }
    let in_crate: BTreeSet<&str> = montlab_core::NATIVE_ALGORITHMS.iter().copied().collect();
    assert_eq!(
        in_crate.len(),
        montlab_core::NATIVE_ALGORITHMS.len(),
        "duplicate ids in NATIVE_ALGORITHMS"
    );
    let missing: Vec<_> = in_registry.difference(&in_crate).collect();
    let extra: Vec<_> = in_crate.difference(&in_registry).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "registry marks {missing:?} native but the crate lacks them; the crate has {extra:?} \
         that the registry does not mark native"
    );
}
