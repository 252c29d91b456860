//! Othello under the referee: games between agents speaking the course's game-manager protocol ([`play`]), and the
//! project's `othello_shared.py` the agents import (`python/`).

pub mod play;
