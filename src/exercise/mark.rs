//! Marking one answer against the right one, item by item, and recognising a wrong method's answer in it.
//!
//! Items: a number or a label is one item; a window two (alpha, beta); a set is marked by its items, right ones
//! over right + missing + extra (so listing everything does not pay); a map by its keys (each right value one
//! item, over the keys asked); the steps of a climb by position (over the longer of the two lists).

use super::answer::Answer;

/// How much of an answer is right.
#[derive(Clone, Debug, PartialEq)]
pub struct Marked {
    /// Right items.
    pub right: usize,
    /// Items counted.
    pub items: usize,
    /// What is wrong, item by item (empty when all is right).
    pub notes: Vec<String>,
}

impl Marked {
    /// The share of the points earned, 0 to 1.
    pub fn fraction(&self) -> f64 {
        if self.items == 0 {
            1.0
        } else {
            self.right as f64 / self.items as f64
        }
    }

    fn one(right: bool, note: &str) -> Marked {
        Marked { right: usize::from(right), items: 1, notes: if right { Vec::new() } else { vec![note.to_string()] } }
    }
}

fn lookup<'a, V>(map: &'a [(String, V)], key: &str) -> Option<&'a V> {
    map.iter().find(|(k, _)| k == key).map(|(_, v)| v)
}

/// Marks keyed items: every expected key is an item; a key the answer misses is wrong.
fn keyed<V: PartialEq>(expected: &[(String, V)], given: &[(String, V)]) -> Marked {
    let mut wrong = Vec::new();
    let mut missing = Vec::new();
    for (k, v) in expected {
        match lookup(given, k) {
            Some(g) if g == v => {}
            Some(_) => wrong.push(k.clone()),
            None => missing.push(k.clone()),
        }
    }
    let mut notes = Vec::new();
    if !wrong.is_empty() {
        notes.push(format!("wrong: {}", wrong.join(", ")));
    }
    if !missing.is_empty() {
        notes.push(format!("missing: {}", missing.join(", ")));
    }
    Marked { right: expected.len() - wrong.len() - missing.len(), items: expected.len(), notes }
}

/// Marks `given` against `expected` (both resolved against the same vocabulary).
pub fn mark(expected: &Answer, given: &Answer) -> Marked {
    match (expected, given) {
        (Answer::Number(e), Answer::Number(g)) => Marked::one(e == g, "the value is wrong"),
        (Answer::Label(e), Answer::Label(g)) => Marked::one(e == g, "another one"),
        (Answer::Window(ea, eb), Answer::Window(ga, gb)) => {
            let mut notes = Vec::new();
            if ea != ga {
                notes.push("alpha is wrong".to_string());
            }
            if eb != gb {
                notes.push("beta is wrong".to_string());
            }
            Marked { right: usize::from(ea == ga) + usize::from(eb == gb), items: 2, notes }
        }
        (Answer::Set(e), Answer::Set(g)) => {
            let right = e.iter().filter(|x| g.contains(x)).count();
            let missing: Vec<&str> = e.iter().filter(|x| !g.contains(x)).map(String::as_str).collect();
            let extra: Vec<&str> = g.iter().filter(|x| !e.contains(x)).map(String::as_str).collect();
            let mut notes = Vec::new();
            if !missing.is_empty() {
                notes.push(format!("missing: {}", missing.join(", ")));
            }
            if !extra.is_empty() {
                notes.push(format!("should not be listed: {}", extra.join(", ")));
            }
            Marked { right, items: right + missing.len() + extra.len(), notes }
        }
        (Answer::Numbers(e), Answer::Numbers(g)) => keyed(e, g),
        (Answer::Labels(e), Answer::Labels(g)) => keyed(e, g),
        (Answer::Domains(e), Answer::Domains(g)) => keyed(e, g),
        (Answer::Steps(e), Answer::Steps(g)) => {
            let items = e.len().max(g.len());
            let right = e.iter().zip(g).filter(|(a, b)| a == b).count();
            let differ: Vec<String> =
                (0..items).filter(|&i| e.get(i) != g.get(i)).map(|i| (i + 1).to_string()).collect();
            let mut notes = Vec::new();
            if !differ.is_empty() {
                notes.push(format!("steps that differ: {}", differ.join(", ")));
            }
            if g.len() != e.len() {
                notes.push(format!("{} steps given, {} expected", g.len(), e.len()));
            }
            Marked { right, items, notes }
        }
        _ => Marked::one(false, "not the form asked"),
    }
}

/// Whether `given` is exactly the answer `method` (a wrong method's) gives: item by item both ways, so a set in
/// any order, a map over the same keys, the same steps. A wrong method is recognised only by its whole answer to a
/// part, never by one matching entry beside others it does not explain.
pub fn gives(method: &Answer, given: &Answer) -> bool {
    mark(method, given).fraction() >= 1.0 && mark(given, method).fraction() >= 1.0
}

#[cfg(test)]
mod tests {
    // Invariant: every unwrap/expect/panic in this module is a test assertion on inputs the test itself fixes,
    // never on user input; a failure is the test failing.
    use super::*;
    use crate::exercise::answer::{parse, Form};

    fn a(form: Form, text: &str) -> Answer {
        parse(form, text).unwrap()
    }

    #[test]
    fn sets_are_marked_by_items_and_listing_everything_does_not_pay() {
        let e = a(Form::LabelSet, "p, q, r");
        assert_eq!(mark(&e, &a(Form::LabelSet, "p, q")).fraction(), 2.0 / 3.0);
        assert_eq!(mark(&e, &a(Form::LabelSet, "p, q, r, s")).fraction(), 3.0 / 4.0);
        let all = a(Form::LabelSet, "a, b, c, d, e, f, g, h, p, q, r");
        assert!(mark(&e, &all).fraction() < 0.3);
        let m = mark(&e, &a(Form::LabelSet, "q, s"));
        assert_eq!(m.notes, ["missing: p, r", "should not be listed: s"]);
    }

    #[test]
    fn maps_windows_and_steps() {
        let e = a(Form::NumberMap, "B = 3, C = 4, D = 1/2");
        let m = mark(&e, &a(Form::NumberMap, "B = 3, C = 5"));
        assert_eq!((m.right, m.items, m.notes.clone()), (1, 3, vec!["wrong: C".to_string(), "missing: D".to_string()]));
        assert_eq!(mark(&a(Form::Window, "(3, +inf)"), &a(Form::Window, "(3, 5)")).fraction(), 0.5);
        let steps = a(Form::Steps, "A-B-C 5; B-A-C 4");
        assert_eq!(mark(&steps, &a(Form::Steps, "A-B-C 5")).fraction(), 0.5);
    }

    #[test]
    fn a_method_is_recognised_by_its_whole_answer_only() {
        let w = a(Form::NumberMap, "B = 3, C = 2, D = 1");
        assert!(gives(&w, &a(Form::NumberMap, "D = 1, B = 3, C = 2")));
        assert!(!gives(&w, &a(Form::NumberMap, "B = 9, C = 2, D = 1")), "another slip beside it is not the method");
        assert!(!gives(&w, &a(Form::NumberMap, "B = 3, C = 2")));
        let w = a(Form::Steps, "C-B-A 6; B-C-A 5");
        assert!(!gives(&w, &a(Form::Steps, "C-B-A 6")));
        assert!(gives(&w, &a(Form::Steps, "C-B-A 6; B-C-A 5")));
        assert!(gives(&a(Form::LabelSet, "p, q"), &a(Form::LabelSet, "q, p")));
    }
}
