//! Othello properties over random games: the bitboard and the array board agree with a plain oracle written here
//! (legal moves in order, the board after every move, passes), disc counts add up, the two rule sets agree until
//! the first position where the side to move has no move, alpha-beta equals minimax (perft counts: tests/it/perft.rs).

use proptest::prelude::*;
use referee::game::othello::{Bits, Board, Grid, Move, Othello, OthelloState, Rules};
use referee::game::{Game, Player};
use referee::search::{alpha_beta, minimax, Counters, Evaluator, Limits};

/// The oracle's board: `cells[row][col]`, 0 empty, 1 dark, 2 light.
type Cells = Vec<Vec<u8>>;

fn oracle_start(n: usize) -> Cells {
    let mut cells = vec![vec![0; n]; n];
    let k = n / 2 - 1;
    cells[k][k] = 2;
    cells[k + 1][k + 1] = 2;
    cells[k + 1][k] = 1;
    cells[k][k + 1] = 1;
    cells
}

/// The squares (row, col) that `me` flips by playing column `col`, row `row`.
fn oracle_flips(cells: &Cells, me: u8, col: usize, row: usize) -> Vec<(usize, usize)> {
    let n = cells.len() as i32;
    let other = 3 - me;
    let mut flipped = Vec::new();
    for dc in -1..=1 {
        for dr in -1..=1 {
            if dc == 0 && dr == 0 {
                continue;
            }
            let mut line = Vec::new();
            let (mut c, mut r) = (col as i32 + dc, row as i32 + dr);
            while (0..n).contains(&c) && (0..n).contains(&r) && cells[r as usize][c as usize] == other {
                line.push((r as usize, c as usize));
                c += dc;
                r += dr;
            }
            if !line.is_empty() && (0..n).contains(&c) && (0..n).contains(&r) && cells[r as usize][c as usize] == me {
                flipped.extend(line);
            }
        }
    }
    flipped
}

/// Legal moves (column, row), column outer, row inner.
fn oracle_moves(cells: &Cells, me: u8) -> Vec<(u8, u8)> {
    let n = cells.len();
    let mut moves = Vec::new();
    for col in 0..n {
        for row in 0..n {
            if cells[row][col] == 0 && !oracle_flips(cells, me, col, row).is_empty() {
                moves.push((col as u8, row as u8));
            }
        }
    }
    moves
}

fn oracle_play(cells: &Cells, me: u8, col: usize, row: usize) -> Cells {
    let mut next = cells.clone();
    for (r, c) in oracle_flips(cells, me, col, row) {
        next[r][c] = me;
    }
    next[row][col] = me;
    next
}

fn cells_of<B: Board>(state: &OthelloState<B>) -> Cells {
    let grid = state.board().to_grid();
    let n = grid.size();
    (0..n).map(|row| (0..n).map(|col| grid.get(row, col)).collect()).collect()
}

fn listed<B: Board>(game: &Othello<B>, state: &OthelloState<B>) -> Vec<(u8, u8)> {
    game.legal_moves(state).map(|m| (m.col, m.row)).collect()
}

fn colour(player: Player) -> u8 {
    match player {
        Player::Max => 1,
        Player::Min => 2,
    }
}

/// Plays a standard-rules game by `choices` on `B`, checking every position against the oracle; returns how many
/// passes the game had.
fn check_against_oracle<B: Board>(n: usize, choices: &[usize]) -> Result<u32, TestCaseError> {
    let mut passes = 0;
    let game = Othello::<B>::new(n, Rules::Standard).unwrap();
    let mut state = game.start();
    let mut cells = oracle_start(n);
    let mut me = 1u8;
    for (played, &c) in choices.iter().enumerate() {
        prop_assert_eq!(cells_of(&state), cells.clone());
        let (dark, light) = state.score();
        prop_assert_eq!((dark + light) as usize, 4 + played);
        let mut expected = oracle_moves(&cells, me);
        if expected.is_empty() {
            me = 3 - me; // a pass
            passes += 1;
            expected = oracle_moves(&cells, me);
        }
        prop_assert_eq!(listed(&game, &state), expected.clone());
        prop_assert_eq!(game.is_terminal(&state), expected.is_empty());
        if expected.is_empty() {
            let winner = match dark.cmp(&light) {
                std::cmp::Ordering::Greater => Some(Player::Max),
                std::cmp::Ordering::Less => Some(Player::Min),
                std::cmp::Ordering::Equal => None,
            };
            prop_assert_eq!(game.winner(&state), winner);
            return Ok(passes - 1); // the last "pass" was the end
        }
        prop_assert_eq!(colour(game.to_move(&state)), me);
        let (col, row) = expected[c % expected.len()];
        let flips = oracle_flips(&cells, me, col.into(), row.into()).len() as u32;
        prop_assert!(flips >= 1);
        let next = game.apply(&state, Move { col, row });
        let mover = game.to_move(&state);
        prop_assert_eq!(next.board().count(mover), state.board().count(mover) + 1 + flips);
        prop_assert_eq!(next.board().count(mover.opponent()), state.board().count(mover.opponent()) - flips);
        cells = oracle_play(&cells, me, col.into(), row.into());
        me = 3 - me;
        state = next;
    }
    Ok(passes)
}

/// Disc difference, dark minus light.
struct DiscDifference;

impl<B: Board> Evaluator<Othello<B>> for DiscDifference {
    type Value = i32;
    fn evaluate(&self, _game: &Othello<B>, state: &OthelloState<B>, _terminal: bool) -> i32 {
        let (dark, light) = state.score();
        dark as i32 - light as i32
    }
}

/// A position reached by random moves (stopping early at the end of the game).
fn random_position(game: &Othello<Bits>, choices: &[usize]) -> OthelloState<Bits> {
    let mut state = game.start();
    for &c in choices {
        let moves: Vec<Move> = game.legal_moves(&state).collect();
        if moves.is_empty() {
            break;
        }
        state = game.apply(&state, moves[c % moves.len()]);
    }
    state
}

fn size() -> impl Strategy<Value = usize> {
    prop_oneof![Just(4usize), Just(6), Just(8)]
}

fn rules() -> impl Strategy<Value = Rules> {
    prop_oneof![Just(Rules::Framework), Just(Rules::Standard)]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn bitboard_and_array_board_agree_with_the_oracle(n in size(), choices in prop::collection::vec(0usize..32, 0..64)) {
        check_against_oracle::<Bits>(n, &choices)?;
        check_against_oracle::<Grid>(n, &choices)?;
    }

    #[test]
    fn the_rule_sets_agree_until_the_side_to_move_is_stuck(n in size(), choices in prop::collection::vec(0usize..32, 0..64)) {
        let framework = Othello::<Bits>::new(n, Rules::Framework).unwrap();
        let standard = Othello::<Bits>::new(n, Rules::Standard).unwrap();
        let (mut f, mut s) = (framework.start(), standard.start());
        for &c in &choices {
            prop_assert_eq!(f.board(), s.board());
            let moves: Vec<Move> = framework.legal_moves(&f).collect();
            if moves.is_empty() {
                prop_assert!(framework.is_terminal(&f));
                // Standard rules: the stuck side passed (or nobody can move and both games are over).
                let other = f.to_move().opponent();
                prop_assert_eq!(standard.is_terminal(&s), !f.board().has_move(other));
                if !standard.is_terminal(&s) {
                    prop_assert_eq!(s.to_move(), other);
                }
                break;
            }
            prop_assert_eq!(f.to_move(), s.to_move());
            prop_assert_eq!(&moves, &standard.legal_moves(&s).collect::<Vec<_>>());
            let mv = moves[c % moves.len()];
            f = framework.apply(&f, mv);
            s = standard.apply(&s, mv);
        }
    }

    #[test]
    fn alpha_beta_equals_minimax(n in size(), rules in rules(), choices in prop::collection::vec(0usize..32, 0..60), depth in 1u32..=4) {
        let game = Othello::<Bits>::new(n, rules).unwrap();
        let root = random_position(&game, &choices);
        let depth = if n == 8 { depth.min(3) } else { depth };
        let (mut ab_count, mut mm_count) = (Counters::default(), Counters::default());
        let ab = alpha_beta(&game, &root, &DiscDifference, Limits::depth(depth), (i32::MIN, i32::MAX), &mut ab_count).unwrap();
        let mm = minimax(&game, &root, &DiscDifference, Limits::depth(depth), &mut mm_count).unwrap();
        prop_assert_eq!((ab.value, ab.best), (mm.value, mm.best));
        prop_assert!(ab_count.visited <= mm_count.visited);
    }
}

/// A small xorshift for the deterministic tests below.
fn xorshift(state: &mut u64) -> usize {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    (*state % 64) as usize
}

#[test]
fn passes_happen_in_random_small_games_and_match_the_oracle() {
    let mut rng = 0x9e37_79b9_7f4a_7c15u64;
    let mut passes = 0;
    for n in [4, 6] {
        for _ in 0..300 {
            let choices: Vec<usize> = (0..n * n).map(|_| xorshift(&mut rng)).collect();
            passes += check_against_oracle::<Bits>(n, &choices).unwrap();
            check_against_oracle::<Grid>(n, &choices).unwrap();
        }
    }
    assert!(passes > 10, "only {passes} passes: the pass path is barely exercised");
}

#[test]
fn large_array_boards_agree_with_the_oracle() {
    let mut rng = 0x2545_f491_4f6c_dd1du64;
    for n in [10, 12, 14, 16] {
        let choices: Vec<usize> = (0..n * n).map(|_| xorshift(&mut rng)).collect();
        check_against_oracle::<Grid>(n, &choices).unwrap();
    }
}
