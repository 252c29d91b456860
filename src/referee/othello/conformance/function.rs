//! The student functions the check calls, and the forms their signatures come in.

use serde::{Deserialize, Serialize};

/// A function of the course's Othello agent template.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Function {
    /// `compute_utility(board, color)`: disc difference from `color`'s view.
    ComputeUtility,
    /// `select_move_minimax(board, color[, limit])`: the move minimax picks.
    SelectMoveMinimax,
    /// `select_move_alphabeta(board, color[, limit])`: the move alpha-beta picks.
    SelectMoveAlphabeta,
    /// `minimax_max_node(board, color[, limit])`: (move, value) with `color` to move.
    MinimaxMaxNode,
    /// `minimax_min_node(board, color[, limit])`: (move, value) with `color`'s opponent to move.
    MinimaxMinNode,
    /// `alphabeta_max_node(board, color, alpha, beta[, limit])`: (move, value) with `color` to move.
    AlphabetaMaxNode,
    /// `alphabeta_min_node(board, color, alpha, beta[, limit])`: (move, value) with the opponent to move.
    AlphabetaMinNode,
}

impl Function {
    /// Every function, in the order the report lists them.
    pub const ALL: [Function; 7] = [
        Function::ComputeUtility,
        Function::SelectMoveMinimax,
        Function::SelectMoveAlphabeta,
        Function::MinimaxMaxNode,
        Function::MinimaxMinNode,
        Function::AlphabetaMaxNode,
        Function::AlphabetaMinNode,
    ];

    /// The Python name.
    pub fn name(self) -> &'static str {
        match self {
            Function::ComputeUtility => "compute_utility",
            Function::SelectMoveMinimax => "select_move_minimax",
            Function::SelectMoveAlphabeta => "select_move_alphabeta",
            Function::MinimaxMaxNode => "minimax_max_node",
            Function::MinimaxMinNode => "minimax_min_node",
            Function::AlphabetaMaxNode => "alphabeta_max_node",
            Function::AlphabetaMinNode => "alphabeta_min_node",
        }
    }

    /// Whether it searches (so it has a `limit` in the later form).
    pub fn searches(self) -> bool {
        self != Function::ComputeUtility
    }

    /// Whether it chooses a move for `color` (it is only asked when `color` has one, as the game manager does).
    pub fn selects(self) -> bool {
        matches!(self, Function::SelectMoveMinimax | Function::SelectMoveAlphabeta)
    }

    /// Whether it is a node function returning (move, value).
    pub fn is_node(self) -> bool {
        self.searches() && !self.selects()
    }

    /// Whether it is a Min node (the opponent of `color` to move).
    pub fn is_min(self) -> bool {
        matches!(self, Function::MinimaxMinNode | Function::AlphabetaMinNode)
    }

    /// Whether it takes an (alpha, beta) window.
    pub fn takes_window(self) -> bool {
        matches!(self, Function::AlphabetaMaxNode | Function::AlphabetaMinNode)
    }
}

/// How the student's function is called, as the helper read its signature.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Form {
    /// The later course's form: the searches take `limit` (plies left); optional `caching`/`ordering` get 0.
    WithLimit,
    /// The older form without `limit` (the searches go to the end of the game), or `compute_utility`.
    WithoutLimit,
    /// A signature the check cannot call with known meaning (the oldest template's `level, limit`): not checked.
    Unsupported,
    /// The module has no such function (or the name holds something that cannot be called).
    Missing,
}

impl Form {
    /// Whether the function can be called.
    pub fn callable(self) -> bool {
        matches!(self, Form::WithLimit | Form::WithoutLimit)
    }
}
