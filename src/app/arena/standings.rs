//! A tournament's final table, computed from its games alone: wins, draws, losses and forfeits per entrant,
//! Bradley-Terry ratings, ranks and the top-10% / top-25% bands. The tournament runner and its report both read it.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::referee::rating::{fit, Rating};
use crate::referee::record::GameRecord;

/// One row of the final table.
#[derive(Clone, Debug, Serialize)]
pub struct Standing {
    /// Place (1 = best rating).
    pub rank: usize,
    /// Student id or agent label.
    pub id: String,
    /// Games won, drawn, lost.
    pub won: u32,
    /// Draws.
    pub drawn: u32,
    /// Losses.
    pub lost: u32,
    /// Of which lost by adjudication (crash, timeout, illegal move).
    pub forfeited: u32,
    /// Bradley-Terry rating (Elo scale).
    pub rating: f64,
    /// Its standard error.
    pub error: f64,
    /// `top 10%`, `top 25%`, or empty.
    pub band: String,
}

/// The table from the games: results per entrant, ratings, ranks and bands (top 10% of the students, then the
/// next 15%, rounded up, at least one student in the first band).
pub fn standings(ids: &[String], students: &[bool], games: &[GameRecord]) -> Vec<Standing> {
    let n = ids.len();
    let index: BTreeMap<&str, usize> = ids.iter().enumerate().map(|(i, id)| (id.as_str(), i)).collect();
    let mut score = vec![vec![0.0; n]; n];
    let mut played = vec![vec![0.0; n]; n];
    let mut rows: Vec<Standing> = ids
        .iter()
        .map(|id| Standing {
            rank: 0,
            id: id.clone(),
            won: 0,
            drawn: 0,
            lost: 0,
            forfeited: 0,
            rating: 0.0,
            error: 0.0,
            band: String::new(),
        })
        .collect();
    for g in games {
        let (Some(&a), Some(&b)) = (index.get(g.seats[0].label.as_str()), index.get(g.seats[1].label.as_str())) else {
            continue;
        };
        played[a][b] += 1.0;
        played[b][a] += 1.0;
        match g.outcome.winner {
            Some(1) => {
                score[a][b] += 1.0;
                rows[a].won += 1;
                rows[b].lost += 1;
            }
            Some(_) => {
                score[b][a] += 1.0;
                rows[b].won += 1;
                rows[a].lost += 1;
            }
            None => {
                score[a][b] += 0.5;
                score[b][a] += 0.5;
                rows[a].drawn += 1;
                rows[b].drawn += 1;
            }
        }
        if let Some(adj) = &g.outcome.adjudication {
            rows[if adj.loser == 1 { a } else { b }].forfeited += 1;
        }
    }
    for (row, r) in rows.iter_mut().zip(fit(&score, &played)) {
        let Rating { elo, error } = r;
        row.rating = elo;
        row.error = error;
    }
    rows.sort_by(|x, y| y.rating.total_cmp(&x.rating).then_with(|| x.id.cmp(&y.id)));
    let student_count = ids.iter().zip(students).filter(|(_, s)| **s).count();
    let top10 = ((student_count as f64) * 0.10).ceil().max(1.0) as usize;
    let top25 = ((student_count as f64) * 0.25).ceil() as usize;
    let is_student: BTreeMap<&str, bool> = ids.iter().map(String::as_str).zip(students.iter().copied()).collect();
    let mut place = 0;
    for (i, row) in rows.iter_mut().enumerate() {
        row.rank = i + 1;
        if is_student.get(row.id.as_str()).copied().unwrap_or(false) {
            place += 1;
            row.band = if place <= top10 {
                "top 10%".into()
            } else if place <= top25.max(top10) {
                "top 25%".into()
            } else {
                String::new()
            };
        }
    }
    rows
}
