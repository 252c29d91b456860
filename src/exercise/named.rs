//! Which wrong methods a student's answers to one variant prove: a misconception is named only when its method
//! reproduces every part the student got wrong and contradicts none they got right, every part taking part in the
//! proof (`first` too). Parts left blank or unreadable neither prove nor refute. "Several methods give this answer"
//! can then only be said when each of them gives the student's whole set of answers.

use super::answer::Answer;
use super::mark::{gives, mark};
use super::misconception::Misconception;
use super::part::Part;

/// What `method` answers on `part`: its recorded answer, or the right one where it gives the right one (a part
/// lists only the methods whose answer differs).
pub fn answer_of(part: &Part, method: Misconception) -> &Answer {
    part.wrong.iter().find(|(m, _)| *m == method).map_or(&part.expected, |(_, w)| w)
}

/// Whether `given` is right on `part`.
fn right(part: &Part, given: &Answer) -> bool {
    mark(&part.expected, given).fraction() >= 1.0
}

/// The methods the answers prove, in [`Misconception::ALL`] order: `given[i]` is the student's readable answer to
/// `parts[i]`, if any. A method is proven when it gives the student's answer on every part they got wrong (at
/// least one) and the right answer on every part they got right.
pub fn proven(parts: &[Part], given: &[Option<Answer>]) -> Vec<Misconception> {
    Misconception::ALL
        .into_iter()
        .filter(|&m| parts.iter().any(|p| p.wrong.iter().any(|(w, _)| *w == m)))
        .filter(|&m| {
            let mut wrong_reproduced = 0;
            for (part, answer) in parts.iter().zip(given) {
                let Some(answer) = answer else { continue };
                let method = answer_of(part, m);
                if right(part, answer) {
                    if !right(part, method) {
                        return false;
                    }
                } else if gives(method, answer) {
                    wrong_reproduced += 1;
                } else {
                    return false;
                }
            }
            wrong_reproduced > 0
        })
        .collect()
}

#[cfg(test)]
mod tests {
    // Invariant: every unwrap/expect/panic in this module is a test assertion on inputs the test itself fixes,
    // never on user input; a failure is the test failing.
    use super::*;
    use crate::exercise::{variant, Kind};

    /// What `method` answers on every part of `parts` (the right answer where it gives the right one).
    fn all_of(parts: &[Part], method: Misconception) -> Vec<Option<Answer>> {
        parts.iter().map(|p| Some(answer_of(p, method).clone())).collect()
    }

    #[test]
    fn a_method_is_named_only_when_it_gives_every_wrong_part_and_no_right_one_is_contradicted() {
        let mut first_diagnosed = 0;
        for i in 0..30 {
            let v = variant(34, &format!("student{i}"), Kind::Alphabeta);
            let parts = &v.parts;
            for m in [Misconception::StrictPruning, Misconception::RightToLeft, Misconception::MinMaxSwapped] {
                // A student who used the method throughout: it is named (and only methods giving all of it).
                let given = all_of(parts, m);
                let named = proven(parts, &given);
                assert!(named.contains(&m), "{}: {m:?} not named: {named:?}", v.code);
                for other in &named {
                    assert_eq!(all_of(parts, *other), given, "{}: {other:?} named but answers otherwise", v.code);
                }
                // The same student with one wrong part put right that the method answers otherwise: not named.
                for (k, part) in parts.iter().enumerate() {
                    if answer_of(part, m) == &part.expected {
                        continue;
                    }
                    let mut fixed = given.clone();
                    fixed[k] = Some(part.expected.clone());
                    assert!(
                        !proven(parts, &fixed).contains(&m),
                        "{}: {m:?} named though part {k} contradicts it",
                        v.code
                    );
                }
            }
            // `first` takes part: a student who only got `first` wrong, as a method would, has it named exactly
            // when the method gives the right answer on every other part.
            let first = parts.iter().position(|p| p.spec.key == "first").unwrap();
            for m in [Misconception::StrictPruning, Misconception::RightToLeft, Misconception::MinMaxSwapped] {
                let theirs = answer_of(&parts[first], m);
                if theirs == &parts[first].expected {
                    continue;
                }
                let mut given: Vec<Option<Answer>> = parts.iter().map(|p| Some(p.expected.clone())).collect();
                given[first] = Some(theirs.clone());
                let others_right = parts.iter().enumerate().all(|(k, p)| k == first || answer_of(p, m) == &p.expected);
                assert_eq!(proven(parts, &given).contains(&m), others_right, "{} {m:?}", v.code);
                first_diagnosed += 1;
            }
        }
        assert!(first_diagnosed > 0, "no variant where strict pruning changes the first child to search");
    }
}
