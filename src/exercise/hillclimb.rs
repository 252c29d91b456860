//! Hill-climbing problems: 5 locations (letters drawn from a pool) with integer distances from 1 to 9 and a
//! starting tour. Open tours (no return to the start), as in UW CS540; a tour's neighbours swap two locations.
//! Asked: the initial tour's length and every tour steepest descent moves to, with its length, until it stops.
//!
//! The matrix is written as `referee hillclimb`'s CSV and read by its parser, and the key is that command's
//! climb. A drawn problem is kept only when it climbs at least twice, the shortest neighbour is never tied, and
//! first-improvement climbing takes another first step.

use std::fmt::Write as _;

use super::answer::{Answer, Form, Vocabulary};
use super::misconception::Misconception;
use super::part::{Part, PartSpec};
use super::seed::Draw;
use super::sheet::{Block, Sheet};
use super::wrong::hillclimb::climb as wrong_climb;
use super::Drawn;
use crate::keys::hillclimb::climb::climb;
use crate::keys::hillclimb::matrix::{parse, Matrix, Notation};
use crate::keys::hillclimb::tour::{length, show};
use crate::keys::number::{self, Q};
use crate::rng::Rng;

const LENGTH: PartSpec = PartSpec { key: "length", title: "initial tour length", form: Form::Number, points: 2 };
const CLIMB: PartSpec =
    PartSpec { key: "climb", title: "states and lengths of the climb", form: Form::Steps, points: 8 };

/// The parts, in the order asked.
pub const PARTS: &[PartSpec] = &[LENGTH, CLIMB];

/// Location names are drawn from these (no I or O, which read as digits).
const POOL: &[char] = &['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'K', 'L', 'M', 'N', 'P', 'R', 'S', 'T', 'W'];

/// Draws problems from `rng` until one is well posed.
pub fn draw(rng: &mut Rng) -> Drawn {
    loop {
        let mut pool = POOL.to_vec();
        rng.shuffle(&mut pool);
        let mut labels: Vec<char> = pool[..5].to_vec();
        labels.sort_unstable();
        let n = labels.len();
        let mut d = vec![vec![0i64; n]; n];
        let pairs: Vec<(usize, usize)> = (0..n).flat_map(|i| (i + 1..n).map(move |j| (i, j))).collect();
        for (i, j) in pairs {
            let x = rng.int(1, 9);
            d[i][j] = x;
            d[j][i] = x;
        }
        let mut start: Vec<usize> = (0..n).collect();
        rng.shuffle(&mut start);
        let mut csv = String::from(",");
        csv.push_str(&labels.iter().map(char::to_string).collect::<Vec<_>>().join(","));
        csv.push('\n');
        for i in 0..n {
            let row: Vec<String> = d[i].iter().map(i64::to_string).collect();
            let _ = writeln!(csv, "{},{}", labels[i], row.join(","));
        }
        let Ok(matrix) = parse(&csv, Notation::Csv) else { continue };
        if let Some(drawn) = pose(&matrix, &start, csv) {
            return drawn;
        }
    }
}

fn pose(matrix: &Matrix, start: &[usize], csv: String) -> Option<Drawn> {
    let key = climb(matrix, start, false);
    let mut moves: Vec<(Vec<usize>, Q)> = Vec::new();
    for step in &key.steps {
        let Some(next) = step.next else { continue };
        let best = &step.neighbours[next].length;
        if step.neighbours.iter().filter(|n| &n.length == best).count() != 1 {
            return None;
        }
        moves.push((step.neighbours[next].tour.clone(), best.clone()));
    }
    if moves.len() < 2 {
        return None;
    }
    let first = wrong_climb(matrix, start, true, 100);
    if first.first() == moves.first() {
        return None;
    }
    let steps = |m: &[(Vec<usize>, Q)]| {
        Answer::Steps(
            m.iter().map(|(t, l)| (t.iter().map(|&i| matrix.labels[i].clone()).collect(), l.clone())).collect(),
        )
    };
    let tour = show(matrix, start);
    let vocab = Vocabulary { keys: Vec::new(), values: matrix.labels.clone() };
    let parts = vec![
        Part::new(
            LENGTH,
            format!("What is the length of the initial tour {tour}?"),
            Vocabulary::default(),
            "a number",
            Answer::Number(length(matrix, start, false)),
        ),
        Part::new(
            CLIMB,
            format!(
                "Run steepest-descent hill climbing from {tour}. Give every tour it moves to, in order, each followed \
                 by its length, until it stops at a tour with no shorter neighbour."
            ),
            vocab,
            "a location",
            steps(&moves),
        )
        .wrong(Misconception::FirstImprovement, Some(steps(&first))),
    ];
    let input = format!("# referee hillclimb MATRIX.csv --tour {tour}\n{csv}");
    Some(Drawn { canonical: input.clone(), input, sheet: sheet(matrix, &tour), parts })
}

fn sheet(matrix: &Matrix, tour: &str) -> Sheet {
    let mut headers = vec![String::new()];
    headers.extend(matrix.labels.iter().cloned());
    let rows = (0..matrix.len())
        .map(|i| {
            let mut row = vec![matrix.labels[i].clone()];
            row.extend((0..matrix.len()).map(|j| number::fraction(matrix.distance(i, j))));
            row
        })
        .collect();
    Sheet {
        intro: vec![format!(
            "A tour visits each of the locations {} once; its length is the sum of the distances between \
             consecutive locations, without returning to the start. The initial tour is {tour}.",
            matrix.labels.join(", ")
        )],
        figure: None,
        blocks: vec![Block::Table { caption: "Distances:".into(), headers, rows }],
        conventions: vec![
            "The neighbours of a tour are the tours made by swapping two of its locations (10 for 5 locations).".into(),
            "Steepest descent moves to the shortest neighbour if it is strictly shorter than the current tour, and \
             stops otherwise."
                .into(),
            "The shortest neighbour is never tied in this problem. Write a tour as its locations joined by dashes, \
             such as A-C-B-D-E."
                .into(),
        ],
    }
}
