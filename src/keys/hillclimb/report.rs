//! The hill-climbing key: the counts for n locations, then each step's neighbours with their lengths.

use num_bigint::BigInt;
use num_traits::Zero;

use super::climb::{neighbour_count, tour_count, Climb};
use super::matrix::Matrix;
use super::tour::show;
use crate::keys::number::{self, Q};
use crate::keys::table::{Format, Table};

/// A length as the decimal it is when it has one (`2.2`, `3`), else as a fraction with its decimal.
pub fn length_text(q: &Q) -> String {
    let ten = BigInt::from(10);
    let mut scaled = q.clone();
    for places in 0..=18 {
        if scaled.is_integer() {
            return number::decimal(q, places);
        }
        scaled *= Q::from_integer(ten.clone());
    }
    number::both(q)
}

/// The whole key.
pub fn render(matrix: &Matrix, climb: &Climb, closed: bool, format: Format) -> String {
    let n = matrix.len();
    let mut out = String::new();
    let shape = if closed { "closed (back to the start)" } else { "open (no return to the start)" };
    out.push_str(&format.item(&format!("Locations: n = {n} ({}); tours are {shape}.", matrix.labels.join(", "))));
    out.push_str(
        &format.item(&format!("Neighbours of a tour (swap two locations): n(n-1)/2 = {}", neighbour_count(n))),
    );
    out.push_str(&format.item(&format!("Search space (every order of the locations): n! = {}", tour_count(n))));
    let Some(first) = climb.steps.first() else {
        return out;
    };
    out.push_str(&format.item(&format!(
        "Initial state: {}, length {}\n",
        show(matrix, &first.tour),
        length_text(&first.length)
    )));
    for (i, step) in climb.steps.iter().enumerate() {
        let title = format!(
            "Step {}: neighbours of {} (length {})",
            i + 1,
            show(matrix, &step.tour),
            length_text(&step.length)
        );
        out.push_str(&format.section(&title));
        let mut t = Table::new(["swap", "neighbour", "length", "change", "next"]).right(2).right(3);
        for (k, nb) in step.neighbours.iter().enumerate() {
            let swap = format!("{}<->{}", matrix.labels[step.tour[nb.swap.0]], matrix.labels[step.tour[nb.swap.1]]);
            let change = &nb.length - &step.length;
            let sign = if change > Q::zero() { "+" } else { "" };
            let mark = if step.next == Some(k) { "<-" } else { "" };
            t.row([
                swap,
                show(matrix, &nb.tour),
                length_text(&nb.length),
                format!("{sign}{}", length_text(&change)),
                mark.into(),
            ]);
        }
        out.push_str(&t.render(format));
        out.push('\n');
        match step.next {
            Some(k) => {
                let nb = &step.neighbours[k];
                out.push_str(&format.item(&format!(
                    "Next state: {} (length {}).\n",
                    show(matrix, &nb.tour),
                    length_text(&nb.length)
                )));
            }
            None => {
                out.push_str(&format.item(&format!(
                    "No neighbour is shorter than {}: {} is a local minimum.\n",
                    length_text(&step.length),
                    show(matrix, &step.tour)
                )));
            }
        }
    }
    let path: Vec<String> = climb.steps.iter().map(|s| show(matrix, &s.tour)).collect();
    let last = climb.steps.last().unwrap_or(first);
    let moves = climb.steps.len() - 1;
    out.push_str(&format.item(&format!("States: {}", path.join(" -> "))));
    out.push_str(&format.item(&format!(
        "Final state: {}, length {} after {moves} move{}.",
        show(matrix, &last.tour),
        length_text(&last.length),
        if moves == 1 { "" } else { "s" }
    )));
    out.push_str(&format.item(
        "Rule: steepest descent; move only to a strictly shorter neighbour; ties go to the first in the table \
             (swap positions (1,2), (1,3), ..., (n-1,n)).",
    ));
    out
}

#[cfg(test)]
mod tests {
    // Invariant: every unwrap/expect/panic in this module is a test assertion on inputs the test itself fixes,
    // never on user input; a failure is the test failing.
    use super::*;

    #[test]
    fn lengths_print_as_written() {
        let q = |t: &str| number::parse(t).unwrap();
        assert_eq!(length_text(&q("2.2")), "2.2");
        assert_eq!(length_text(&q("3")), "3");
        assert_eq!(length_text(&q("-0.25")), "-0.25");
        assert_eq!(length_text(&q("14/3")), "14/3 (4.667)");
    }
}
