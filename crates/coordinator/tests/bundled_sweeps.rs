//! Every sweep bundled under `data/sweeps/` reads, parses, passes its budget
//! checks and builds its scenario, as `pf1e run` checks a sweep before the
//! first battle.

use std::path::Path;

use pf1e_coordinator::sweep::{SweepDraft, bundle_from_disk};

#[test]
fn every_bundled_sweep_is_accepted_before_any_battle() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/sweeps");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
        .collect();
    paths.sort();
    assert!(paths.len() >= 12, "{} sweeps", paths.len());
    for path in &paths {
        let bundle = bundle_from_disk(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let draft = SweepDraft::from_bundle(&bundle).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        draft.validate().unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    }
}
