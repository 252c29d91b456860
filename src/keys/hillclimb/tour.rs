//! A tour: every location once, in order. Its length is the sum of the legs, plus the leg back to the start when
//! the tour is closed.

use crate::keys::number::Q;

use super::matrix::Matrix;

/// Reads a tour written as labels separated by commas, dashes or spaces (`W,M,E,S`, `<W-M-E-S>`), or run
/// together when every label is one character (`WMES`).
///
/// # Errors
/// One line naming the unknown, repeated or missing location.
pub fn parse(text: &str, matrix: &Matrix) -> Result<Vec<usize>, String> {
    let t = text.trim().trim_start_matches('<').trim_end_matches('>');
    let separators = [',', '-', '–', '—', ' ', '\t'];
    let names: Vec<String> = if t.contains(separators) {
        t.split(separators).filter(|s| !s.is_empty()).map(str::to_string).collect()
    } else if matrix.labels.iter().all(|l| l.chars().count() == 1) {
        t.chars().map(String::from).collect()
    } else {
        vec![t.to_string()]
    };
    let known = matrix.labels.join(", ");
    let mut tour = Vec::new();
    for name in &names {
        let Some(i) = matrix.labels.iter().position(|l| l == name) else {
            return Err(format!("--tour: unknown location '{name}' (the matrix has {known})"));
        };
        if tour.contains(&i) {
            return Err(format!("--tour: '{name}' appears twice (a tour visits each location once)"));
        }
        tour.push(i);
    }
    let missing: Vec<&str> =
        (0..matrix.len()).filter(|i| !tour.contains(i)).map(|i| matrix.labels[i].as_str()).collect();
    if !missing.is_empty() {
        return Err(format!("--tour misses {} (a tour visits every location: {known})", missing.join(", ")));
    }
    Ok(tour)
}

/// The tour's length; `closed` adds the leg from the last location back to the first.
pub fn length(matrix: &Matrix, tour: &[usize], closed: bool) -> Q {
    let mut total: Q = tour.windows(2).map(|w| matrix.distance(w[0], w[1])).sum();
    if closed && tour.len() > 1 {
        total += matrix.distance(tour[tour.len() - 1], tour[0]);
    }
    total
}

/// The tour as labels joined by dashes: `W-M-E-S`.
pub fn show(matrix: &Matrix, tour: &[usize]) -> String {
    tour.iter().map(|&i| matrix.labels[i].as_str()).collect::<Vec<_>>().join("-")
}
