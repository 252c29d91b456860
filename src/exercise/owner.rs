//! Whose sheet a hand-in answers. A variant is drawn for the id `exercise make` was given (`bob smith`,
//! `carol+1@uni.edu`), but a class folder names hand-ins by file names, which lose what a file name cannot hold
//! (make's own folders are `bob_smith`, `carol_1@uni.edu`). So a hand-in's id is looked for among its candidates:
//! the roster's ids that name it (`exercise grade --ids`, the roster make was given), the hand-in's name as it is,
//! and its safe id; the first whose variants are the ones the answer file's `variant =` lines name is taken (the
//! first candidate when the file names none, or none of them fits: grading then reports the mismatch as the TA's
//! to look at, never as a student's zero).
//!
//! Only names the TA controls (the roster, the hand-in's name) are candidates: an id written inside the answer
//! file is not, so copying another student's file never grades it against that student's sheet.

use super::file::AnswerFile;
use super::seed::normalize_id;
use super::{variant, Kind, Variant};
use crate::harness::grade::class::safe_name;
use crate::harness::grade::ids::{safe_id, student_id};

/// The ids a hand-in named `name` (its file or folder name) with the safe id `id` may have been made for, most
/// trusted first, without repeats: the `roster` ids whose file names, safe ids or normalised ids are the
/// hand-in's, then the name's own id (before it was made safe), then `id`.
pub fn candidates(name: &str, id: &str, roster: &[String]) -> Vec<String> {
    let stem = name.strip_suffix(".txt").or_else(|| name.strip_suffix(".TXT")).unwrap_or(name);
    let raw = student_id(stem);
    let mut out: Vec<String> = Vec::new();
    for r in roster {
        let names = [safe_name(r), safe_id(r), safe_id(&student_id(r))];
        let fits = names.iter().any(|n| n.eq_ignore_ascii_case(id)) || normalize_id(r) == normalize_id(&raw);
        if fits {
            out.push(r.clone());
        }
    }
    for c in [raw, id.to_string()] {
        if !c.trim().is_empty() && !out.iter().any(|o| normalize_id(o) == normalize_id(&c)) {
            out.push(c);
        }
    }
    out
}

/// The id among `candidates` (not empty) whose variants of `kinds` under `seed` are the ones `file` names, with
/// those variants; the first candidate when `file` names no variant or none fits.
pub fn choose(seed: u64, kinds: &[Kind], candidates: &[String], file: Option<&AnswerFile>) -> (String, Vec<Variant>) {
    let draw = |id: &str| -> Vec<Variant> { kinds.iter().map(|&k| variant(seed, id, k)).collect() };
    let named: Vec<(Kind, &str)> =
        kinds.iter().filter_map(|&k| Some((k, file?.section(k)?.variant.as_ref()?.0.as_str()))).collect();
    let first = candidates.first().cloned().unwrap_or_default();
    if named.is_empty() || candidates.len() < 2 {
        let variants = draw(&first);
        return (first, variants);
    }
    for id in candidates {
        let variants = draw(id);
        let fits = named
            .iter()
            .all(|(k, code)| variants.iter().any(|v| v.kind == *k && v.code.eq_ignore_ascii_case(code.trim())));
        if fits {
            return (id.clone(), variants);
        }
    }
    let variants = draw(&first);
    (first, variants)
}

#[cfg(test)]
mod tests {
    // Invariant: every unwrap/expect/panic in this module is a test assertion on inputs the test itself fixes,
    // never on user input; a failure is the test failing.
    use super::*;
    use crate::exercise::file;

    #[test]
    fn the_roster_id_a_folder_name_stands_for_is_found_by_its_variant_line() {
        let roster: Vec<String> = ["bob smith", "carol+1@uni.edu", "alice"].map(String::from).to_vec();
        assert_eq!(candidates("bob_smith", "bob_smith", &roster), ["bob smith", "bob_smith"]);
        assert_eq!(candidates("bob smith", "bob_smith", &[]), ["bob smith", "bob_smith"]);
        assert_eq!(candidates("alice.txt", "alice", &roster), ["alice"]);
        let kinds = [Kind::Hillclimb];
        let theirs: Vec<Variant> = kinds.iter().map(|&k| variant(7, "carol+1@uni.edu", k)).collect();
        let answers = file::parse("answers.txt", &file::template("carol+1@uni.edu", &theirs));
        let found = choose(7, &kinds, &candidates("carol_1@uni.edu", "carol_1@uni.edu", &[]), Some(&answers));
        assert_eq!(found.0, "carol_1@uni.edu", "without the roster the folder's name is all there is");
        let found = choose(7, &kinds, &candidates("carol_1@uni.edu", "carol_1@uni.edu", &roster), Some(&answers));
        assert_eq!((found.0.as_str(), found.1[0].code.as_str()), ("carol+1@uni.edu", theirs[0].code.as_str()));
    }
}
