//! Grading by games, in the harness's result model: a game becomes a zero-point case whose output is the record's
//! moves, so the gradebook, Gradescope and markdown renderers show games like any other case.

use crate::harness::model::{Captured, CaseResult, Points, Status};
use crate::referee::agent::FaultKind;
use crate::referee::record::GameRecord;

/// A game as a zero-point case: passed when won, with the record's moves as its output.
pub fn game_case(record: &GameRecord, seat: u8, opponent: &str) -> CaseResult {
    let won = record.outcome.winner == Some(seat);
    let status = match &record.outcome.adjudication {
        Some(adj) if adj.loser == seat => match adj.fault.kind {
            FaultKind::NoMove => Status::Timeout,
            FaultKind::Crashed | FaultKind::Startup => Status::Crashed,
            FaultKind::IllegalMove | FaultKind::Garbage => Status::Failed,
        },
        _ if won => Status::Passed,
        _ => Status::Failed,
    };
    let mut c = case(
        format!("vs {opponent}, {}, seat {seat}", record.params),
        vec![record.params.clone(), format!("seat {seat}")],
        status,
        Points::ZERO,
        Points::ZERO,
        record.verdict(),
    );
    let mut text = String::new();
    for (i, m) in record.moves.iter().enumerate() {
        text.push_str(&format!("{:>3}. seat {} plays {}  {} ms  {}\n", i + 1, m.seat, m.mv, m.millis, m.board));
    }
    if let Some(adj) = &record.outcome.adjudication {
        c.diagnosis = Some(format!("seat {} {}: {}", adj.loser, adj.fault.kind.label(), adj.fault.detail));
        text.push_str(&format!("position:\n{}", adj.position));
        c.stderr = captured(&adj.fault.stderr_tail);
    }
    c.stdout = captured(&text);
    c.elapsed_ms = record.moves.iter().map(|m| m.millis).sum();
    c
}

/// `text` as captured output.
pub fn captured(text: &str) -> Captured {
    Captured::excerpt(text.as_bytes(), false, crate::harness::model::Keep::Head, crate::harness::model::EXCERPT_BYTES)
}

/// A visible case with no expected output.
pub fn case(name: String, args: Vec<String>, status: Status, score: Points, max: Points, detail: String) -> CaseResult {
    CaseResult {
        args,
        score,
        tags: vec![crate::harness::render::markdown::RECORD_TAG.to_string()],
        detail,
        ..CaseResult::new(name, status, max)
    }
}
