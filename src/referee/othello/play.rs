//! Othello under the referee's game loop, in the course's protocol: each turn the side to move gets `SCORE d l` and
//! the board as a tuple-of-tuples literal, and answers `i j`; at the end both get `FINAL d l`, flushed, before their
//! stdin closes (the course's manager killed them without it).

use crate::game::othello::literal::format_board;
use crate::game::othello::{Grid, Move, Othello, OthelloState, Rules};
use crate::game::{Game, Player};
use crate::referee::game_loop::Refereed;

/// The two lines that give an agent its turn.
pub fn position_lines(state: &OthelloState<Grid>) -> String {
    let (dark, light) = state.score();
    format!("SCORE {dark} {light}\n{}", format_board(&state.grid()))
}

/// Checks a reply `i j` against `state`.
///
/// # Errors
/// One line saying why the move is not legal.
pub fn legal_move(game: &Othello<Grid>, state: &OthelloState<Grid>, word: &str) -> Result<Move, String> {
    let mut parts = word.split_whitespace().map(str::parse::<i64>);
    let (Some(Ok(col)), Some(Ok(row))) = (parts.next(), parts.next()) else {
        return Err(format!("'{word}' is not a move 'i j'"));
    };
    let size = game.size() as i64;
    if !(0..size).contains(&col) || !(0..size).contains(&row) {
        return Err(format!("{col} {row} is off the {size}x{size} board (column i, row j, from 0)"));
    }
    let mv = Move { col: col as u8, row: row as u8 };
    if game.legal_moves(state).any(|m| m == mv) {
        return Ok(mv);
    }
    let why = if state.grid().get(mv.row.into(), mv.col.into()) != 0 { "is taken" } else { "flips nothing" };
    let legal: Vec<String> = game.legal_moves(state).map(|m| format!("({m})")).collect();
    Err(format!("column {col} row {row} {why}; legal were {}", legal.join(" ")))
}

/// The board on one line, rows separated by `/` (`.` empty, `X` dark, `O` light).
pub fn one_line(grid: &Grid) -> String {
    let n = grid.size();
    let rows: Vec<String> = (0..n)
        .map(|r| {
            (0..n)
                .map(|c| match grid.get(r, c) {
                    1 => 'X',
                    2 => 'O',
                    _ => '.',
                })
                .collect()
        })
        .collect();
    rows.join("/")
}

/// The board drawn with the side to move and the score.
pub fn draw(state: &OthelloState<Grid>) -> String {
    let (dark, light) = state.score();
    let side = match state.to_move() {
        Player::Max => "dark (X, 1)",
        Player::Min => "light (O, 2)",
    };
    format!("{}dark {dark}, light {light}; {side} to move\n", state.grid())
}

impl Refereed for Othello<Grid> {
    type State = OthelloState<Grid>;
    type Move = Move;

    fn name(&self) -> &'static str {
        "othello"
    }

    fn params(&self) -> String {
        let rules = match self.rules() {
            Rules::Framework => "framework",
            Rules::Standard => "standard",
        };
        format!("{0}x{0}, {rules} rules", self.size())
    }

    fn greeting_params(&self) -> Vec<String> {
        vec![self.size().to_string()]
    }

    fn start(&self) -> OthelloState<Grid> {
        Othello::start(self)
    }

    fn is_over(&self, state: &OthelloState<Grid>) -> bool {
        self.is_terminal(state)
    }

    fn seat_to_move(&self, state: &OthelloState<Grid>) -> u8 {
        match state.to_move() {
            Player::Max => 1,
            Player::Min => 2,
        }
    }

    fn position(&self, state: &OthelloState<Grid>) -> String {
        position_lines(state)
    }

    fn legal(&self, state: &OthelloState<Grid>, word: &str) -> Result<Move, String> {
        legal_move(self, state, word)
    }

    fn apply(&self, state: &OthelloState<Grid>, mv: &Move) -> OthelloState<Grid> {
        Game::apply(self, state, *mv)
    }

    fn one_line(&self, state: &OthelloState<Grid>) -> String {
        one_line(&state.grid())
    }

    fn draw(&self, state: &OthelloState<Grid>) -> String {
        draw(state)
    }

    fn score(&self, state: &OthelloState<Grid>) -> [u32; 2] {
        let (dark, light) = state.score();
        [dark, light]
    }

    fn farewell(&self, state: &OthelloState<Grid>) -> Option<String> {
        let (dark, light) = state.score();
        Some(format!("FINAL {dark} {light}"))
    }
}
