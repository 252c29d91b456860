//! `--shard K/N`: one of N machines runs part K of a class run or a tournament, into its own `--out`, and
//! records in `shard.json` which part of which run it holds, so `referee merge` can put the parts together and
//! refuse parts of different runs.
//!
//! The partition is fixed by the run alone: the run's units (students sorted by id, or a tournament's games in
//! their schedule order) are dealt round-robin, unit `i` (from 0) to shard `i mod N + 1`. Every shard computes the
//! same list, so no coordination is needed and a re-run of a shard resumes like any run.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::harness::grade::class::write_atomic;

/// The manifest file a shard writes into its `--out`.
pub const MANIFEST: &str = "shard.json";

/// Version of [`Manifest`]'s shape.
pub const MANIFEST_SCHEMA: u32 = 1;

/// Part `index` (1-based) of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// K, from 1.
    pub index: usize,
    /// N.
    pub count: usize,
}

impl Shard {
    /// Parses `K/N` (1 <= K <= N).
    ///
    /// # Errors
    /// A message naming `--shard` and what was wrong.
    pub fn parse(text: &str) -> Result<Shard, String> {
        let bad = || format!("--shard: '{text}' is not K/N with 1 <= K <= N (e.g. 2/10)");
        let (k, n) = text.trim().split_once('/').ok_or_else(bad)?;
        let index: usize = k.trim().parse().map_err(|_| bad())?;
        let count: usize = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }

    /// Parses an optional `--shard`.
    ///
    /// # Errors
    /// See [`Shard::parse`].
    pub fn parse_option(text: Option<&str>) -> Result<Option<Shard>, String> {
        text.map(Shard::parse).transpose()
    }

    /// Whether the unit at `position` (from 0, in the run's order) is this shard's.
    pub fn owns(&self, position: usize) -> bool {
        position % self.count == self.index - 1
    }

    /// `K/N`.
    pub fn label(&self) -> String {
        format!("{}/{}", self.index, self.count)
    }
}

/// Keeps the items of `all` (in the run's order) that `shard` owns; all of them when there is no shard.
pub fn select<T: Clone>(all: &[T], shard: Option<Shard>) -> Vec<T> {
    all.iter().enumerate().filter(|(i, _)| shard.map_or(true, |s| s.owns(*i))).map(|(_, t)| t.clone()).collect()
}

/// Games need one seed on every shard (the built-in random agent's games must be the same games).
///
/// # Errors
/// When a shard is asked for without `--seed`.
pub fn require_seed(shard: Option<Shard>, seed: Option<u64>) -> Result<(), String> {
    match (shard, seed) {
        (Some(s), None) => Err(format!(
            "--shard {} needs --seed: every shard must play with the same seed (any number, the same on each)",
            s.label()
        )),
        _ => Ok(()),
    }
}

/// What a tournament shard must carry so the standings can be computed from all shards' games.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TournamentPlan {
    /// Entrants in table order before ranking (students by id, then `--with` agents).
    pub ids: Vec<String>,
    /// Whether each entrant is a student (reference agents get no band).
    pub students: Vec<bool>,
    /// Students left out, with why (did not build).
    pub excluded: Vec<String>,
    /// The table's title.
    pub title: String,
    /// The settings line under it.
    pub settings: String,
}

/// `shard.json`: which part of which run a folder holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    /// [`MANIFEST_SCHEMA`].
    pub schema: u32,
    /// The command (`grade`, `grade mancala`, `grade othello`, `tournament mancala`, `tournament othello`).
    pub command: String,
    /// Every setting that changes a result (the run's resume fingerprint).
    pub fingerprint: String,
    /// K.
    pub shard: usize,
    /// N.
    pub of: usize,
    /// The report's suite name (class runs).
    pub suite: String,
    /// The whole run's units in order: student ids, or a tournament's game names.
    pub units: Vec<String>,
    /// For tournaments: the entrants and the table's headings.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tournament: Option<TournamentPlan>,
}

/// What identifies a tournament's entrants; who was left out is not compared, because a compiler's message names
/// each machine's own work folder.
fn entrants(m: &Manifest) -> Option<(&[String], &[bool], &str, &str)> {
    m.tournament.as_ref().map(|t| (&t.ids[..], &t.students[..], t.title.as_str(), t.settings.as_str()))
}

impl Manifest {
    /// The units this shard owns.
    pub fn members(&self) -> Vec<&String> {
        let shard = Shard { index: self.shard.max(1), count: self.of.max(1) };
        self.units.iter().enumerate().filter(|(i, _)| shard.owns(*i)).map(|(_, u)| u).collect()
    }

    /// The first difference from `other` in what identifies the run (all but the shard index), in words.
    pub fn differs_from(&self, other: &Manifest) -> Option<&'static str> {
        if self.command != other.command {
            Some("the command")
        } else if self.fingerprint != other.fingerprint {
            Some("the settings (suite, commands, limits, seed or clock)")
        } else if self.of != other.of {
            Some("the number of shards")
        } else if self.units != other.units {
            Some("the class (its students or games)")
        } else if self.suite != other.suite || entrants(self) != entrants(other) {
            Some("the entrants or the suite")
        } else {
            None
        }
    }

    /// Writes the manifest into `out`.
    ///
    /// # Errors
    /// When the file cannot be written.
    pub fn write(&self, out: &Path) -> std::io::Result<()> {
        let json = crate::harness::render::json_text::to_vec_pretty(self)?;
        write_atomic(&out.join(MANIFEST), &json)
    }

    /// Reads the manifest of `out`.
    ///
    /// # Errors
    /// A message naming the folder: no manifest (not a shard's output) or one that does not parse.
    pub fn read(out: &Path) -> Result<Manifest, String> {
        let path = out.join(MANIFEST);
        let bytes = std::fs::read(&path).map_err(|e| {
            if e.kind() == std::io::ErrorKind::NotFound {
                format!("{}: no {MANIFEST}: not the --out folder of a run with --shard", out.display())
            } else {
                format!("{}: {e}", path.display())
            }
        })?;
        let manifest: Manifest =
            serde_json::from_slice(&bytes).map_err(|e| format!("{}: not a shard manifest: {e}", path.display()))?;
        if manifest.schema != MANIFEST_SCHEMA {
            return Err(format!(
                "{}: manifest version {} (this referee reads {MANIFEST_SCHEMA})",
                path.display(),
                manifest.schema
            ));
        }
        Ok(manifest)
    }

    /// Writes the manifest for `shard`, or removes a stale one when the run is not sharded (so an old manifest
    /// never makes an unsharded folder look like a shard).
    ///
    /// # Errors
    /// When the file cannot be written.
    pub fn record(shard: Option<Shard>, out: &Path, make: impl FnOnce(Shard) -> Manifest) -> std::io::Result<()> {
        match shard {
            Some(s) => make(s).write(out),
            None => match std::fs::remove_file(out.join(MANIFEST)) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
                _ => Ok(()),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    // Invariant: every unwrap/expect/panic in this module is a test assertion on inputs the test itself fixes,
    // never on user input; a failure is the test failing.
    use super::*;

    #[test]
    fn parses_k_of_n_and_refuses_the_rest() {
        assert_eq!(Shard::parse("2/3"), Ok(Shard { index: 2, count: 3 }));
        for bad in ["0/3", "4/3", "3", "a/b", "1/0", "-1/2", ""] {
            assert!(Shard::parse(bad).unwrap_err().contains("--shard"), "{bad}");
        }
    }

    #[test]
    fn every_unit_belongs_to_exactly_one_shard() {
        let units: Vec<usize> = (0..10).collect();
        for n in 1..=4 {
            let mut seen: Vec<usize> =
                (1..=n).flat_map(|k| select(&units, Some(Shard { index: k, count: n }))).collect();
            seen.sort_unstable();
            assert_eq!(seen, units, "N = {n}");
        }
        assert_eq!(select(&units, None), units);
    }
}
