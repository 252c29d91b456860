//! Mancala boards as text for match output and game records, always from seat 1's side (seat 2's row on top,
//! read right to left, as the course's window shows it).

use crate::game::mancala::MancalaState;

/// One line: `S1 4 4 0 5 5 5 [1] | S2 4 4 4 4 4 4 [0]`, each row from its own bin 0 to 5, then its mancala.
pub fn one_line(state: &MancalaState) -> String {
    let row = |base: usize| -> String {
        let bins: Vec<String> = state.pits[base..base + 6].iter().map(u16::to_string).collect();
        format!("{} [{}]", bins.join(" "), state.pits[base + 6])
    };
    format!("S1 {} | S2 {}", row(0), row(7))
}

/// The board drawn over three lines: seat 2's bins (12 down to 7) on top, the two mancalas on the sides (seat 2's
/// on the left, seat 1's on the right), seat 1's bins (0 to 5) below.
pub fn draw(state: &MancalaState) -> String {
    let cells = |pits: &mut dyn Iterator<Item = u16>| -> String { pits.map(|n| format!("{n:>4}")).collect() };
    let top = cells(&mut (7..13).rev().map(|i| state.pits[i]));
    let bottom = cells(&mut (0..6).map(|i| state.pits[i]));
    format!("seat 2  {top}\n{:>7} {}{:>4}\nseat 1  {bottom}\n", state.pits[13], " ".repeat(24), state.pits[6])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::mancala::Mancala;

    #[test]
    fn the_start_drawn() {
        let s = Mancala::new(4).start();
        assert_eq!(one_line(&s), "S1 4 4 4 4 4 4 [0] | S2 4 4 4 4 4 4 [0]");
        let drawn = draw(&s);
        assert_eq!(drawn.lines().count(), 3);
        assert!(drawn.starts_with("seat 2     4   4"));
    }
}
