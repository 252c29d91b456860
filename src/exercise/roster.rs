//! The students `exercise make` makes sheets for: `--ids a,b,c`, or a roster file, either one id a line or a CSV
//! whose id column is named by `--id-column` or found by its header (`id`, `netid`, `login`, `sis login id`,
//! `username`, `email`, `sid`, `student id`, `uni`; any case). Canvas's gradebook export works as it is (its id
//! column is `SIS Login ID`; rows without one, such as "Points Possible", are skipped).

use std::collections::HashMap;
use std::path::Path;

use super::seed::normalize_id;
use crate::harness::grade::class::safe_name;

/// Header names taken for the id column, in order of preference.
const ID_HEADERS: &[&str] =
    &["netid", "sis login id", "login", "login id", "username", "uni", "id", "sid", "student id", "email"];

/// Splits one CSV line (quotes as in RFC 4180; no line breaks inside fields).
fn fields(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut field = String::new();
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                field.push('"');
                chars.next();
            }
            ('"', _) => quoted = !quoted,
            (',', false) => out.push(std::mem::take(&mut field)),
            (c, _) => field.push(c),
        }
    }
    out.push(field);
    out.into_iter().map(|f| f.trim().to_string()).collect()
}

/// The ids named by `arg` (a file, or ids separated by commas).
///
/// # Errors
/// One line: an unreadable file, no id column, an empty roster, an id given twice or two ids that would share
/// a file name.
pub fn read(arg: &str, column: Option<&str>) -> Result<Vec<String>, String> {
    let path = Path::new(arg);
    let ids = if path.is_file() {
        let bytes = std::fs::read(path).map_err(|e| format!("--ids {arg}: {e}"))?;
        let text = String::from_utf8_lossy(&bytes);
        from_file(arg, text.trim_start_matches('\u{feff}'), column)?
    } else if [".csv", ".txt", ".tsv"].iter().any(|x| arg.to_ascii_lowercase().ends_with(x)) || arg.contains('/') {
        return Err(format!("--ids {arg}: no such file (give a roster file, or ids separated by commas)"));
    } else {
        if column.is_some() {
            return Err("--id-column goes with a roster file, not with ids on the command line".into());
        }
        arg.split(',').map(str::trim).filter(|s| !s.is_empty()).map(String::from).collect()
    };
    check(arg, ids)
}

fn from_file(name: &str, text: &str, column: Option<&str>) -> Result<Vec<String>, String> {
    let rows: Vec<(usize, Vec<String>)> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .map(|(i, l)| (i + 1, fields(l)))
        .collect();
    let Some((_, header)) = rows.first() else {
        return Err(format!("--ids {name}: the roster is empty"));
    };
    let lower: Vec<String> = header.iter().map(|h| h.to_ascii_lowercase()).collect();
    let wanted = match column {
        Some(c) => Some(lower.iter().position(|h| h.eq_ignore_ascii_case(c.trim())).ok_or_else(|| {
            format!("--id-column {c}: {name} has no such column (its header is: {})", header.join(", "))
        })?),
        None => ID_HEADERS.iter().find_map(|want| lower.iter().position(|h| h == want)),
    };
    match wanted {
        Some(col) => Ok(rows[1..].iter().filter_map(|(_, r)| r.get(col).filter(|s| !s.is_empty()).cloned()).collect()),
        None if rows.iter().all(|(_, r)| r.len() == 1) => Ok(rows.iter().map(|(_, r)| r[0].clone()).collect()),
        None => Err(format!(
            "--ids {name}: which column holds the ids? Its header ({}) names none of {}; give --id-column NAME",
            header.join(", "),
            ID_HEADERS.join(", ")
        )),
    }
}

fn check(arg: &str, ids: Vec<String>) -> Result<Vec<String>, String> {
    if ids.is_empty() {
        return Err(format!("--ids {arg}: no ids"));
    }
    let mut seen: HashMap<String, &str> = HashMap::new();
    let mut files: HashMap<String, &str> = HashMap::new();
    for id in &ids {
        if id.chars().any(char::is_control) {
            return Err(format!("--ids: the id {id:?} holds a control character"));
        }
        if let Some(first) = seen.insert(normalize_id(id), id) {
            return Err(format!("--ids: '{first}' and '{id}' are the same student (ids ignore case and spaces)"));
        }
        if let Some(first) = files.insert(safe_name(id).to_ascii_lowercase(), id) {
            return Err(format!("--ids: '{first}' and '{id}' would share the file name {}", safe_name(id)));
        }
    }
    Ok(ids)
}

#[cfg(test)]
mod tests {
    // Invariant: every unwrap/expect/panic in this module is a test assertion on inputs the test itself fixes,
    // never on user input; a failure is the test failing.
    use super::*;

    #[test]
    fn rosters_in_the_shapes_tas_have() {
        assert_eq!(from_file("r", "alice\nbob\n\n# note\ncarol\n", None).unwrap(), ["alice", "bob", "carol"]);
        let canvas = "Student,ID,SIS User ID,SIS Login ID,Section\n    Points Possible,,,,\n\"Smith, Gina\",123,9001,smithgina,S1\n";
        assert_eq!(from_file("r", canvas, None).unwrap(), ["smithgina"]);
        assert_eq!(from_file("r", canvas, Some("SIS User ID")).unwrap(), ["9001"]);
        assert!(from_file("r", "name,score\na,1\n", None).unwrap_err().contains("--id-column"));
        assert!(check("x", vec!["Al".into(), "al ".into()]).unwrap_err().contains("same student"));
        assert!(check("x", vec!["a b".into(), "a_b".into()]).unwrap_err().contains("share the file name"));
        assert_eq!(read("alice, bob", None).unwrap(), ["alice", "bob"]);
        assert!(read("missing-roster.csv", None).unwrap_err().contains("no such file"));
    }
}
