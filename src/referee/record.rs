//! The record of one refereed game: who sat where, every move with its time, and how it ended. Serialized into
//! grading reports, so its JSON shape is part of the report contract.

use serde::{Deserialize, Serialize};

use super::agent::Fault;

/// One side of a game as recorded.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatRecord {
    /// The agent as named on the command line.
    pub label: String,
    /// The name it gave itself.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub display_name: Option<String>,
    /// How many times its process was started (more than 1: it was restarted after a deadline).
    pub starts: u32,
}

/// One move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveRecord {
    /// 1 or 2.
    pub seat: u8,
    /// The move as the agent sent it.
    #[serde(rename = "move")]
    pub mv: String,
    /// Milliseconds from `go` to the end of the turn.
    pub millis: u64,
    /// The agent's last `info` of the turn.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub info: Option<String>,
    /// The board after the move, on one line.
    pub board: String,
}

/// A loss by adjudication.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Adjudication {
    /// The seat that lost (1 or 2).
    pub loser: u8,
    /// What it did.
    pub fault: Fault,
    /// The position it failed in, drawn.
    pub position: String,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    /// The winning seat (1 or 2), `None` for a draw.
    pub winner: Option<u8>,
    /// The final score of seats 1 and 2 (Mancala: stones in each mancala).
    pub score: [u32; 2],
    /// Set when the game was decided by a fault rather than played out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub adjudication: Option<Adjudication>,
}

/// A whole game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The game (`mancala`).
    pub game: String,
    /// Its parameters in words (`4 stones`).
    pub params: String,
    /// Milliseconds per move.
    pub per_move_millis: u64,
    /// Seats 1 and 2.
    pub seats: [SeatRecord; 2],
    /// Every move, in order.
    pub moves: Vec<MoveRecord>,
    /// The result.
    pub outcome: Outcome,
}

impl GameRecord {
    /// The seat (1 or 2) of `label`, when it played this game.
    pub fn seat_of(&self, label: &str) -> Option<u8> {
        self.seats.iter().position(|s| s.label == label).map(|i| i as u8 + 1)
    }

    /// The last line of a game as `referee match` prints it: `winner: AGENT (seat N), SCORE` or `draw, SCORE`.
    pub fn verdict(&self) -> String {
        let [a, b] = self.outcome.score;
        let how = match &self.outcome.adjudication {
            Some(adj) => format!(" by adjudication: seat {} {}", adj.loser, adj.fault.kind.label()),
            None => String::new(),
        };
        match self.outcome.winner {
            Some(seat) => {
                let label = &self.seats[usize::from(seat - 1)].label;
                format!("winner: {label} (seat {seat}), {a}-{b}{how}")
            }
            None => format!("draw, {a}-{b}"),
        }
    }
}
