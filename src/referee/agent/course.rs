//! A turn in the Othello course's protocol: the position goes out, one `i j` line comes back before the deadline.
//! There is no `stop` and no best-so-far: an agent still thinking past the limit and the tolerance is killed and
//! loses, which is what the course's 10-second rule means (its manager crashed instead).

use std::time::{Duration, Instant};

use super::{clip, Agent, Fault, FaultKind, Played, TimeControl};
use crate::referee::process::Incoming;

/// `i j` as the course's manager reads it (two integers separated by blanks), normalised; `None` otherwise.
pub fn course_move(line: &str) -> Option<String> {
    let mut words = line.split_whitespace();
    let (Some(i), Some(j), None) = (words.next(), words.next(), words.next()) else { return None };
    let (i, j) = (i.parse::<i64>().ok()?, j.parse::<i64>().ok()?);
    Some(format!("{i} {j}"))
}

const DEBUG_HINT: &str = "the course's manager takes every stdout line as a move: print debug output to stderr";

impl Agent {
    pub(super) fn course_turn(&mut self, position: &str, clock: &TimeControl, chatter: bool) -> Result<Played, Fault> {
        let mut info = None;
        // Anything it printed after its last move would have been read as this move by the course's manager.
        let mut process = self.next_turn(clock, |line| {
            if chatter {
                info = Some(clip(line));
                Ok(())
            } else {
                Err(format!("printed '{}' on stdout after its last move ({DEBUG_HINT})", clip(line)))
            }
        })?;
        let start = Instant::now();
        process.send(position);
        let until = start + clock.per_move + clock.tolerance;
        loop {
            match process.recv(until) {
                Incoming::Line(line) => match course_move(&line) {
                    Some(word) => {
                        process.pause();
                        self.process = Some(process);
                        return Ok(Played { word, elapsed: start.elapsed(), info, stopped: false });
                    }
                    None if chatter => info = Some(clip(&line)),
                    None => {
                        let detail = format!("sent '{}' where a move 'i j' was expected ({DEBUG_HINT})", clip(&line));
                        return Err(self.failed(&process, FaultKind::Garbage, detail));
                    }
                },
                Incoming::Bad(what) => {
                    return Err(self.failed(&process, FaultKind::Garbage, format!("sent {what}")));
                }
                Incoming::Timeout => {
                    process.kill();
                    let secs = clock.per_move.as_secs_f64();
                    let detail = match &info {
                        Some(last) => format!("no move within {secs} s (its last stdout line: '{last}')"),
                        None => format!("no move within {secs} s"),
                    };
                    return Err(self.failed(&process, FaultKind::NoMove, detail));
                }
                Incoming::Closed => {
                    let how = process.wait_exit(Duration::from_secs(1)).unwrap_or_else(|| "closed stdout".into());
                    return Err(self.failed(&process, FaultKind::Crashed, format!("ended during its turn ({how})")));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::course_move;

    #[test]
    fn reads_moves_like_the_course_manager() {
        assert_eq!(course_move("2 3").as_deref(), Some("2 3"));
        assert_eq!(course_move("  2\t3 ").as_deref(), Some("2 3"));
        assert_eq!(course_move("-1 3").as_deref(), Some("-1 3"));
        assert_eq!(course_move("2,3"), None);
        assert_eq!(course_move("2 3 4"), None);
        assert_eq!(course_move("thinking"), None);
        assert_eq!(course_move(""), None);
    }
}
