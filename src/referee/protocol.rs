//! The agent line protocol, version 1 (`docs/agent-protocol.md`): the lines the referee writes and the replies it
//! understands. Game-independent: a position and a move are words the game module encodes and decodes.

/// Protocol version sent in the greeting.
pub const VERSION: u32 = 1;

/// Ends a turn at the deadline.
pub const STOP: &str = "stop";

/// Ends the game.
pub const QUIT: &str = "quit";

/// The greeting: `referee 1 GAME PARAMS.. SEAT`.
pub fn hello(game: &str, params: &[String], seat: u8) -> String {
    let mut words = vec!["referee".to_string(), VERSION.to_string(), game.to_string()];
    words.extend(params.iter().cloned());
    words.push(seat.to_string());
    words.join(" ")
}

/// A turn: `go MS POSITION`.
pub fn go(millis: u64, position: &str) -> String {
    format!("go {millis} {position}")
}

/// One line from an agent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// `name TEXT`: ready, and its display name.
    Name(String),
    /// `move WORD`: the best move so far.
    Move(String),
    /// `done` / `done restart`: the turn is over; with `restart` the agent is exiting.
    Done {
        /// The agent exits and must be started again for its next turn.
        restart: bool,
    },
    /// `stale WORD`: (Java host) the player never set its move this turn.
    Stale(String),
    /// `info TEXT`: free text for the record.
    Info(String),
}

/// A greeting (the inverse of [`hello`]) as an agent reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hello {
    /// The game's name.
    pub game: String,
    /// The game's parameters.
    pub params: Vec<String>,
    /// 1 moves first, 2 second.
    pub seat: u8,
}

/// A line an agent receives, as the built-in agents read it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// The greeting.
    Hello(Hello),
    /// Think: milliseconds and the position's words.
    Go {
        /// Milliseconds for this move.
        millis: u64,
        /// The position.
        position: Vec<String>,
    },
    /// Time is up.
    Stop,
    /// The game is over.
    Quit,
}

/// Parses a line the referee sent.
///
/// # Errors
/// A message saying what is wrong with the line.
pub fn parse_command(line: &str) -> Result<Command, String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    match words.as_slice() {
        ["referee", version, game, rest @ ..] => {
            if *version != VERSION.to_string() {
                return Err(format!("protocol version {version} (this agent speaks {VERSION})"));
            }
            let (seat, params) = rest.split_last().ok_or("greeting without a seat")?;
            let seat = seat.parse().ok().filter(|s| *s == 1 || *s == 2).ok_or(format!("seat '{seat}'"))?;
            let params = params.iter().map(|w| w.to_string()).collect();
            Ok(Command::Hello(Hello { game: game.to_string(), params, seat }))
        }
        ["go", millis, position @ ..] => {
            let millis = millis.parse().map_err(|_| format!("time '{millis}' is not a number of milliseconds"))?;
            Ok(Command::Go { millis, position: position.iter().map(|w| w.to_string()).collect() })
        }
        ["stop"] => Ok(Command::Stop),
        ["quit"] => Ok(Command::Quit),
        _ => Err(format!("unknown command '{line}'")),
    }
}

/// Parses an agent's line.
///
/// # Errors
/// The line itself, when it is not part of the protocol (the referee calls that garbage).
pub fn parse_reply(line: &str) -> Result<Reply, String> {
    let line = line.trim_end();
    let (head, rest) = line.split_once(' ').unwrap_or((line, ""));
    let rest = rest.trim();
    let one_word = !rest.is_empty() && !rest.contains(char::is_whitespace);
    match head {
        "name" => Ok(Reply::Name(rest.to_string())),
        "move" if one_word => Ok(Reply::Move(rest.to_string())),
        "stale" if one_word => Ok(Reply::Stale(rest.to_string())),
        "done" if rest.is_empty() => Ok(Reply::Done { restart: false }),
        "done" if rest == "restart" => Ok(Reply::Done { restart: true }),
        "info" => Ok(Reply::Info(rest.to_string())),
        _ => Err(line.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replies_parse_and_garbage_is_returned_whole() {
        assert_eq!(parse_reply("move 3"), Ok(Reply::Move("3".into())));
        assert_eq!(parse_reply("move 3\r"), Ok(Reply::Move("3".into())));
        assert_eq!(parse_reply("done restart"), Ok(Reply::Done { restart: true }));
        assert_eq!(parse_reply("name Jane Doe"), Ok(Reply::Name("Jane Doe".into())));
        assert_eq!(parse_reply("info depth 9"), Ok(Reply::Info("depth 9".into())));
        assert_eq!(parse_reply("move 3 4"), Err("move 3 4".into()));
        assert_eq!(parse_reply("Thinking..."), Err("Thinking...".into()));
        assert_eq!(parse_reply("done now"), Err("done now".into()));
    }

    #[test]
    fn commands_round_trip() {
        let hello = super::hello("mancala", &["4".into()], 2);
        assert_eq!(hello, "referee 1 mancala 4 2");
        assert_eq!(
            parse_command(&hello),
            Ok(Command::Hello(Hello { game: "mancala".into(), params: vec!["4".into()], seat: 2 }))
        );
        assert_eq!(
            parse_command(&go(250, "1 2")),
            Ok(Command::Go { millis: 250, position: vec!["1".into(), "2".into()] })
        );
        assert!(parse_command("referee 2 mancala 4 1").is_err());
        assert!(parse_command("go soon").is_err());
    }
}
