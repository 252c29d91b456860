//! How an answer is written and read. Every part has a [`Form`] (a number, a label, a set of labels, an
//! `(alpha, beta)` window, a label-to-value list, a list of domains, a list of tour steps); [`parse`] reads what a
//! student wrote into an [`Answer`] with the labels as written, [`resolve`] then matches the labels against the
//! variant's (ignoring case), and [`Answer::show`] writes an answer the way a student should.
//!
//! ```text
//! Number     14/3          -2          4.5
//! Label      C
//! LabelSet   d, E, k       none
//! Window     (3, +inf)     alpha = 3, beta = +inf
//! NumberMap  B = 3, C = 14/3
//! LabelMap   A = right, B = up
//! DomainMap  B = {1, 3}; C = {2}; D = {}
//! Steps      A-C-B-D-E 17; A-B-C-D-E 15
//! ```

use crate::game::tree::Exact;
use crate::keys::number::{self, Q};

/// How an answer is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// One number: an integer, a fraction or a finite decimal.
    Number,
    /// One label (a node, a variable, a child of the root).
    Label,
    /// Labels separated by commas; `none` for the empty set.
    LabelSet,
    /// Two bounds, alpha then beta; each a number, `-inf` or `+inf`.
    Window,
    /// `LABEL = number` entries separated by commas or semicolons.
    NumberMap,
    /// `LABEL = label` entries separated by commas or semicolons.
    LabelMap,
    /// `LABEL = {values}` entries separated by semicolons (or commas).
    DomainMap,
    /// Steps separated by semicolons: a tour (labels joined by dashes) and its length.
    Steps,
}

impl Form {
    /// What an answer of this form looks like, for messages and templates.
    pub fn example(self) -> &'static str {
        match self {
            Form::Number => "a number such as 7, -2, 14/3 or 4.5",
            Form::Label => "one label, such as C",
            Form::LabelSet => "labels separated by commas, such as d, E, k (or none)",
            Form::Window => "(alpha, beta), such as (3, +inf); use -inf and +inf for the infinities",
            Form::NumberMap => "LABEL = number pairs separated by commas, such as B = 3, C = 14/3",
            Form::LabelMap => "LABEL = action pairs separated by commas, such as A = right, B = up",
            Form::DomainMap => "LABEL = {values} separated by semicolons, such as B = {1, 3}; C = {2}; D = {}",
            Form::Steps => "each step's tour and length, separated by semicolons, such as A-C-B-D-E 17; A-B-C-D-E 15",
        }
    }
}

/// A tour and its length.
pub type Step = (Vec<String>, Q);

/// An answer, read or computed.
#[derive(Clone, Debug, PartialEq)]
pub enum Answer {
    /// A number.
    Number(Q),
    /// A label.
    Label(String),
    /// A set of labels (no repeats; a computed one is in the variant's label order).
    Set(Vec<String>),
    /// Alpha and beta.
    Window(Exact, Exact),
    /// A number per label.
    Numbers(Vec<(String, Q)>),
    /// A label per label.
    Labels(Vec<(String, String)>),
    /// Values per label.
    Domains(Vec<(String, Vec<i64>)>),
    /// Tours with their lengths, in order.
    Steps(Vec<Step>),
}

impl Answer {
    /// The answer as a student should write it (see the module docs).
    pub fn show(&self) -> String {
        let q = number::fraction;
        match self {
            Answer::Number(x) => q(x),
            Answer::Label(l) => l.clone(),
            Answer::Set(s) if s.is_empty() => "none".into(),
            Answer::Set(s) => s.join(", "),
            Answer::Window(a, b) => format!("({a}, {b})"),
            Answer::Numbers(m) => join(m.iter().map(|(k, v)| format!("{k} = {}", q(v))), ", "),
            Answer::Labels(m) => join(m.iter().map(|(k, v)| format!("{k} = {v}")), ", "),
            Answer::Domains(m) => {
                join(m.iter().map(|(k, v)| format!("{k} = {{{}}}", join(v.iter().map(i64::to_string), ", "))), "; ")
            }
            Answer::Steps(s) if s.is_empty() => "none".into(),
            Answer::Steps(s) => join(s.iter().map(|(t, len)| format!("{} {}", t.join("-"), q(len))), "; "),
        }
    }
}

fn join(items: impl Iterator<Item = String>, sep: &str) -> String {
    items.collect::<Vec<_>>().join(sep)
}

/// Reads `text` as an answer of `form`, labels as written.
///
/// # Errors
/// One line saying what could not be read (the caller adds which part and what was expected).
pub fn parse(form: Form, text: &str) -> Result<Answer, String> {
    let text = text.trim().replace(['\u{2212}', '\u{2013}'], "-").replace('\u{221e}', "inf");
    let text = text.as_str();
    if text.is_empty() {
        return Err("it is blank".into());
    }
    match form {
        Form::Number => value(text).map(Answer::Number),
        Form::Label => label(text).map(Answer::Label),
        Form::LabelSet => {
            let inner = text.trim_start_matches(['{', '[', '(']).trim_end_matches(['}', ']', ')']).trim();
            if is_none(inner) {
                return Ok(Answer::Set(Vec::new()));
            }
            let mut set: Vec<String> = Vec::new();
            for word in inner.split([',', ';', ' ', '\t', '\n']).filter(|w| !w.is_empty()) {
                let l = label(word)?;
                if !set.contains(&l) {
                    set.push(l);
                }
            }
            Ok(Answer::Set(set))
        }
        Form::Window => window(text),
        Form::NumberMap => {
            let entries = entries(text, &[',', ';', '\n'])?;
            let mut out = Vec::new();
            for (k, v) in entries {
                let x = value(&v).map_err(|e| format!("{k}: {e}"))?;
                out.push((k, x));
            }
            Ok(Answer::Numbers(out))
        }
        Form::LabelMap => {
            let entries = entries(text, &[',', ';', '\n'])?;
            let mut out = Vec::new();
            for (k, v) in entries {
                let l = label(&v).map_err(|e| format!("{k}: {e}"))?;
                out.push((k, l));
            }
            Ok(Answer::Labels(out))
        }
        Form::DomainMap => domains(text).map(Answer::Domains),
        Form::Steps => {
            if is_none(text) {
                return Ok(Answer::Steps(Vec::new()));
            }
            steps(text).map(Answer::Steps)
        }
    }
}

fn is_none(text: &str) -> bool {
    let t = text.trim();
    t.is_empty() || ["none", "-", "nothing", "{}", "[]", "empty"].iter().any(|w| t.eq_ignore_ascii_case(w))
}

/// A number, exactly.
fn value(text: &str) -> Result<Q, String> {
    let t = text.trim().trim_start_matches('+');
    if t.to_ascii_lowercase().contains("inf") {
        return Err(format!("'{}' is not a finite number", text.trim()));
    }
    number::parse(t)
}

/// A label: letters, digits and `_`, as written.
fn label(text: &str) -> Result<String, String> {
    let t = text.trim().trim_matches(['"', '\'', '<', '>']);
    if t.is_empty() {
        return Err("a label is missing".into());
    }
    if !t.chars().all(|c| c.is_alphanumeric() || c == '_') {
        return Err(format!("'{t}' is not a label (expected letters or digits, such as C)"));
    }
    Ok(t.to_string())
}

/// A window bound: a number or an infinity.
fn bound(text: &str) -> Result<Exact, String> {
    let t = text.trim().to_ascii_lowercase();
    match t.as_str() {
        "-inf" | "-infinity" => return Ok(Exact::NegInf),
        "+inf" | "inf" | "+infinity" | "infinity" => return Ok(Exact::PosInf),
        _ => {}
    }
    let q = value(&t)?;
    Exact::from_q(&q).ok_or_else(|| format!("'{t}' is too large"))
}

/// `(a, b)`, `a, b`, `alpha = a, beta = b` (either order when named).
fn window(text: &str) -> Result<Answer, String> {
    let inner = text.trim().trim_start_matches(['(', '[']).trim_end_matches([')', ']']);
    let pieces: Vec<&str> = inner.split([',', ';']).map(str::trim).collect();
    if pieces.len() != 2 {
        return Err(format!("'{}' is not two bounds", text.trim()));
    }
    let mut alpha = None;
    let mut beta = None;
    for (i, piece) in pieces.iter().enumerate() {
        let lower = piece.to_lowercase();
        let (name, rest) = match lower.split_once(['=', ':']) {
            Some((n, r)) => (Some(n.trim().to_string()), r.trim().to_string()),
            None => (None, lower.clone()),
        };
        let b = bound(&rest)?;
        match name.as_deref() {
            Some("alpha" | "α" | "a") => alpha = Some(b),
            Some("beta" | "β" | "b") => beta = Some(b),
            Some(other) => return Err(format!("'{other}' is neither alpha nor beta")),
            None if i == 0 => alpha = Some(b),
            None => beta = Some(b),
        }
    }
    match (alpha, beta) {
        (Some(a), Some(b)) => Ok(Answer::Window(a, b)),
        _ => Err("give alpha once and beta once".into()),
    }
}

/// `KEY = VALUE` (or `KEY: VALUE`) entries split on `seps`; keys as written, no key twice.
fn entries(text: &str, seps: &[char]) -> Result<Vec<(String, String)>, String> {
    let mut out: Vec<(String, String)> = Vec::new();
    for piece in text.split(seps).map(str::trim).filter(|p| !p.is_empty()) {
        let Some((k, v)) = piece.split_once(['=', ':']) else {
            return Err(format!("'{piece}' is not LABEL = value"));
        };
        let key = label(k)?;
        if out.iter().any(|(o, _)| o.eq_ignore_ascii_case(&key)) {
            return Err(format!("{key} is given twice"));
        }
        out.push((key, v.trim().to_string()));
    }
    if out.is_empty() {
        return Err("there is no LABEL = value entry".into());
    }
    Ok(out)
}

/// `A = {1, 2}; B = {}`: the values inside braces belong to the label before them.
fn domains(text: &str) -> Result<Vec<(String, Vec<i64>)>, String> {
    let mut out: Vec<(String, Vec<i64>)> = Vec::new();
    let mut rest = text.trim();
    while !rest.is_empty() {
        let Some(open) = rest.find('{') else {
            return Err(format!("'{rest}' has no {{values}} (write B = {{1, 3}})"));
        };
        let Some(close) = rest[open..].find('}').map(|c| open + c) else {
            return Err(format!("a '{{' is not closed in '{rest}'"));
        };
        let head = rest[..open].trim().trim_start_matches([',', ';']).trim();
        let key = head.strip_suffix(['=', ':']).map(str::trim).ok_or_else(|| format!("'{head}' is not LABEL ="))?;
        let key = label(key)?;
        if out.iter().any(|(o, _)| o.eq_ignore_ascii_case(&key)) {
            return Err(format!("{key} is given twice"));
        }
        let mut values = Vec::new();
        for v in rest[open + 1..close].split([',', ' ', ';']).filter(|v| !v.is_empty()) {
            let n: i64 = v.trim().parse().map_err(|_| format!("{key}: '{v}' is not an integer"))?;
            if !values.contains(&n) {
                values.push(n);
            }
        }
        values.sort_unstable();
        out.push((key, values));
        rest = rest[close + 1..].trim_start_matches([',', ';', ' ', '\t', '\n']);
    }
    if out.is_empty() {
        return Err("there is no LABEL = {values} entry".into());
    }
    Ok(out)
}

/// The characters that only separate the words of a climb.
fn separates(c: char) -> bool {
    c.is_whitespace() || ",;:=-<>()[]{}".contains(c)
}

/// A climb: tours, each its locations followed by its length, however they are separated: `A-C-B-D-E 17;
/// A-B-C-D-E 15`, the same with commas or line breaks between the steps, `<A,C,B,D,E> (17)`, `ACBDE: 17`. A word
/// that starts with a letter is a location, one that starts with a digit a length (so `A-B-C 7, B-A-C 5` is two
/// steps, never a tour through a location `7`); a tour written as one word (`ACB`) is a location per letter.
fn steps(text: &str) -> Result<Vec<Step>, String> {
    let mut out: Vec<Step> = Vec::new();
    let mut tour: Vec<String> = Vec::new();
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let start = i;
        if c.is_alphabetic() || c == '_' {
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            tour.push(chars[start..i].iter().collect());
        } else if c.is_ascii_digit() {
            while i < chars.len() && (chars[i].is_ascii_digit() || chars[i] == '/' || chars[i] == '.') {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            let step = out.len() + 1;
            let length = value(word.trim_end_matches('.')).map_err(|e| format!("step {step}: {e}"))?;
            let labels = match tour.as_slice() {
                [] => return Err(format!("step {step}: the length {word} has no tour before it")),
                [one] if one.chars().count() > 1 => one.chars().map(String::from).collect(),
                _ => std::mem::take(&mut tour),
            };
            tour.clear();
            out.push((labels, length));
        } else if separates(c) {
            i += 1;
        } else {
            return Err(format!("step {}: '{c}' cannot stand in a climb", out.len() + 1));
        }
    }
    if !tour.is_empty() {
        return Err(format!("step {}: '{}' is not a tour followed by its length", out.len() + 1, tour.join("-")));
    }
    Ok(out)
}

/// The names an answer's labels are matched against: `keys` (a map's keys, a set's or a label's choices) and
/// `values` (a label map's values, a tour's locations).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Vocabulary {
    /// Map keys, or the labels a set or a single label may use.
    pub keys: Vec<String>,
    /// The labels a label map's values or a tour's stops may use.
    pub values: Vec<String>,
}

fn canonical(word: &str, known: &[String], what: &str) -> Result<String, String> {
    known.iter().find(|k| k.eq_ignore_ascii_case(word)).cloned().ok_or_else(|| {
        let list = if known.len() > 30 { format!("{}, ...", known[..30].join(", ")) } else { known.join(", ") };
        format!("'{word}' is not {what} (expected one of {list})")
    })
}

/// `answer` with every label replaced by the variant's spelling; a set sorted in the vocabulary's order.
///
/// # Errors
/// The first label the variant does not have.
pub fn resolve(answer: Answer, vocabulary: &Vocabulary, what: &str) -> Result<Answer, String> {
    let keys = &vocabulary.keys;
    let vals = &vocabulary.values;
    Ok(match answer {
        Answer::Label(l) => Answer::Label(canonical(&l, keys, what)?),
        Answer::Set(s) => {
            let mut found = s.iter().map(|l| canonical(l, keys, what)).collect::<Result<Vec<_>, _>>()?;
            found.sort_by_key(|l| keys.iter().position(|k| k == l));
            found.dedup();
            Answer::Set(found)
        }
        Answer::Numbers(m) => Answer::Numbers(
            m.into_iter().map(|(k, v)| Ok((canonical(&k, keys, what)?, v))).collect::<Result<_, String>>()?,
        ),
        Answer::Labels(m) => Answer::Labels(
            m.into_iter()
                .map(|(k, v)| Ok((canonical(&k, keys, what)?, canonical(&v, vals, "an action here")?)))
                .collect::<Result<_, String>>()?,
        ),
        Answer::Domains(m) => Answer::Domains(
            m.into_iter().map(|(k, v)| Ok((canonical(&k, keys, what)?, v))).collect::<Result<_, String>>()?,
        ),
        Answer::Steps(s) => Answer::Steps(
            s.into_iter()
                .map(|(t, len)| {
                    let t = t.iter().map(|l| canonical(l, vals, "a location")).collect::<Result<Vec<_>, _>>()?;
                    Ok((t, len))
                })
                .collect::<Result<_, String>>()?,
        ),
        other @ (Answer::Number(_) | Answer::Window(..)) => other,
    })
}

#[cfg(test)]
mod tests {
    // Invariant: every unwrap/expect/panic in this module is a test assertion on inputs the test itself fixes,
    // never on user input; a failure is the test failing.
    use super::*;

    fn q(t: &str) -> Q {
        number::parse(t).unwrap()
    }

    #[test]
    fn every_form_reads_what_it_shows() {
        let cases = [
            (Form::Number, "14/3"),
            (Form::Label, "C"),
            (Form::LabelSet, "d, E, k"),
            (Form::LabelSet, "none"),
            (Form::Window, "(3, +inf)"),
            (Form::NumberMap, "B = 3, C = 14/3"),
            (Form::LabelMap, "A = right, B = up"),
            (Form::DomainMap, "B = {1, 3}; C = {2}; D = {}"),
            (Form::Steps, "A-C-B-D-E 17; A-B-C-D-E 15"),
        ];
        for (form, text) in cases {
            let a = parse(form, text).unwrap();
            assert_eq!(a.show(), text, "{form:?}");
            assert_eq!(parse(form, &a.show()).unwrap(), a);
        }
    }

    #[test]
    fn students_may_write_answers_their_own_way() {
        assert_eq!(parse(Form::Number, " 4.5 ").unwrap(), Answer::Number(q("9/2")));
        assert_eq!(parse(Form::Number, "\u{2212}2").unwrap(), Answer::Number(q("-2")));
        assert_eq!(
            parse(Form::Window, "beta = 5, alpha = -inf").unwrap(),
            Answer::Window(Exact::NegInf, Exact::from_q(&q("5")).unwrap())
        );
        assert_eq!(parse(Form::Window, "[3; \u{221e}]").unwrap().show(), "(3, +inf)");
        assert_eq!(parse(Form::LabelSet, "{d e  k}").unwrap().show(), "d, e, k");
        assert_eq!(parse(Form::Steps, "<A,C,B> (7); ACB: 7").unwrap().show(), "A-C-B 7; A-C-B 7");
        for climb in ["A-C-B 7, C-A-B 5", "A-C-B 7\nC-A-B 5", "A,C,B,7,C,A,B,5", "ACB 7 CAB 5", "A-C-B 7; C-A-B 5."] {
            assert_eq!(parse(Form::Steps, climb).unwrap().show(), "A-C-B 7; C-A-B 5", "{climb:?}");
        }
        assert_eq!(parse(Form::DomainMap, "B: {3 1}, C={}").unwrap().show(), "B = {1, 3}; C = {}");
    }

    #[test]
    fn what_cannot_be_read_says_why() {
        for (form, text, why) in [
            (Form::Number, "", "blank"),
            (Form::Number, "four", "not a number"),
            (Form::Number, "inf", "not a finite number"),
            (Form::Label, "B, C", "not a label"),
            (Form::Window, "3", "not two bounds"),
            (Form::Window, "gamma = 3, beta = 2", "neither alpha nor beta"),
            (Form::NumberMap, "B 3", "not LABEL = value"),
            (Form::NumberMap, "B = 3, b = 4", "given twice"),
            (Form::DomainMap, "B = 1, 2", "no {values}"),
            (Form::DomainMap, "B = {1, x}", "not an integer"),
            (Form::Steps, "A-B-C", "not a tour followed by its length"),
            (Form::Steps, "A-B-C 5, 7", "has no tour before it"),
            (Form::Steps, "A-B-C 5 ! B-A-C 4", "cannot stand in a climb"),
        ] {
            let e = parse(form, text).unwrap_err();
            assert!(e.contains(why), "{form:?} {text:?}: {e}");
        }
    }

    #[test]
    fn labels_resolve_ignoring_case_and_unknown_ones_are_named() {
        let v = Vocabulary { keys: vec!["A".into(), "B".into(), "h".into()], values: vec!["up".into()] };
        let a = resolve(parse(Form::LabelSet, "H, b").unwrap(), &v, "a node").unwrap();
        assert_eq!(a, Answer::Set(vec!["B".into(), "h".into()]));
        let e = resolve(parse(Form::LabelSet, "z").unwrap(), &v, "a node of the tree").unwrap_err();
        assert_eq!(e, "'z' is not a node of the tree (expected one of A, B, h)");
        let e = resolve(parse(Form::LabelMap, "a = down").unwrap(), &v, "a state").unwrap_err();
        assert!(e.contains("'down' is not an action here"), "{e}");
    }
}
