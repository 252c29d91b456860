//! An agent as the referee sees it across a game: a process that is started on demand, given its turns under the
//! time control, frozen between them, and started again when it had to be killed.

use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::process::{AgentProcess, Incoming, Launch};
use super::protocol::{self, Reply};

mod course;

/// The clock of a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Time per move (the course's default is 10 s).
    pub per_move: Duration,
    /// Extra time after `stop` in which a last move and `done` still count (the framework waited 0.5 s more).
    pub tolerance: Duration,
    /// Time to start and answer the greeting; never charged to a move.
    pub startup: Duration,
}

impl Default for TimeControl {
    fn default() -> TimeControl {
        TimeControl {
            per_move: Duration::from_secs(10),
            tolerance: Duration::from_millis(500),
            startup: Duration::from_secs(30),
        }
    }
}

/// Why an agent lost by adjudication.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FaultKind {
    /// It could not be started, or did not answer the greeting in time.
    Startup,
    /// No move before the deadline.
    NoMove,
    /// A move that is not legal in the position.
    IllegalMove,
    /// A line outside the protocol.
    Garbage,
    /// It exited or was killed during its turn, or between turns.
    Crashed,
}

impl FaultKind {
    /// The words a record uses.
    pub fn label(self) -> &'static str {
        match self {
            FaultKind::Startup => "failed to start",
            FaultKind::NoMove => "no move at the deadline",
            FaultKind::IllegalMove => "illegal move",
            FaultKind::Garbage => "protocol error",
            FaultKind::Crashed => "crashed",
        }
    }
}

/// An adjudicated loss: what happened, in one line, and the agent's last stderr.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fault {
    /// What kind of failure.
    pub kind: FaultKind,
    /// What exactly ("sent 'Thinking...'", "exit code 1").
    pub detail: String,
    /// The last bytes the agent wrote to stderr.
    pub stderr_tail: String,
}

/// A turn that produced a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    /// The move's word, not yet checked for legality (the game does that).
    pub word: String,
    /// From `go` to the end of the turn.
    pub elapsed: Duration,
    /// The last `info` line of the turn.
    pub info: Option<String>,
    /// The agent had to be stopped at the deadline (killed, or it exited to be restarted).
    pub stopped: bool,
}

/// Which line protocol an agent speaks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// The project's protocol (`docs/agent-protocol.md`): greeted with this line, then `go`, `stop`, `quit`.
    Referee(String),
    /// The Othello course's game-manager protocol: the agent names itself first, is sent this color line, and
    /// answers each position (`SCORE d l` and the board) with one `i j` line.
    Course {
        /// The color line (`1`, `2`, or the later course's `color,limit,minimax,caching,ordering`).
        color_line: String,
        /// Skip stdout lines that are not a move instead of adjudicating them (the course took any line as the
        /// move).
        chatter: bool,
    },
}

/// One side of a game.
#[derive(Debug)]
pub struct Agent {
    /// How it is named on the command line (`builtin:simple`, `jdoePlayer.java`, `cmd:...`).
    pub label: String,
    launch: Launch,
    dialect: Dialect,
    process: Option<AgentProcess>,
    /// The name it gave in answer to the greeting.
    pub display_name: Option<String>,
    /// How many times it was started.
    pub starts: u32,
    last_stderr: String,
}

impl Agent {
    /// An agent that will be started with `launch` and spoken to in `dialect`.
    pub fn new(label: String, launch: Launch, dialect: Dialect) -> Agent {
        Agent { label, launch, dialect, process: None, display_name: None, starts: 0, last_stderr: String::new() }
    }

    /// The last bytes of its stderr (across restarts).
    pub fn stderr_tail(&self) -> String {
        match &self.process {
            Some(p) => {
                let now = p.stderr_tail();
                if now.is_empty() {
                    self.last_stderr.clone()
                } else {
                    now
                }
            }
            None => self.last_stderr.clone(),
        }
    }

    fn fault(&self, kind: FaultKind, detail: impl Into<String>) -> Fault {
        Fault { kind, detail: detail.into(), stderr_tail: self.stderr_tail() }
    }

    /// Starts it if it is not running and waits for its `name` (not charged to any move).
    ///
    /// # Errors
    /// A [`FaultKind::Startup`] fault.
    pub fn start(&mut self, clock: &TimeControl) -> Result<(), Fault> {
        if self.process.is_some() {
            return Ok(());
        }
        let mut process =
            AgentProcess::spawn(&self.launch).map_err(|e| self.fault(FaultKind::Startup, e.to_string()))?;
        self.starts += 1;
        if let Dialect::Referee(greeting) = &self.dialect {
            process.send(greeting);
        }
        let until = Instant::now() + clock.startup;
        loop {
            match process.recv(until) {
                Incoming::Line(line) if matches!(self.dialect, Dialect::Course { .. }) => {
                    // The course's manager takes the first line, whatever it says, as the name.
                    self.display_name.get_or_insert_with(|| clip(line.trim()));
                    break;
                }
                Incoming::Line(line) => match protocol::parse_reply(&line) {
                    Ok(Reply::Name(name)) => {
                        self.display_name.get_or_insert(name);
                        break;
                    }
                    Ok(Reply::Info(_)) => {}
                    _ => {
                        return Err(self.failed(
                            &process,
                            FaultKind::Startup,
                            format!("sent '{}' before its name", clip(&line)),
                        ));
                    }
                },
                Incoming::Bad(what) => {
                    return Err(self.failed(&process, FaultKind::Startup, format!("sent {what}")));
                }
                Incoming::Timeout => {
                    let secs = clock.startup.as_secs_f64();
                    let what = if matches!(self.dialect, Dialect::Course { .. }) { "name line" } else { "'name' line" };
                    return Err(self.failed(
                        &process,
                        FaultKind::Startup,
                        format!("no {what} within {secs} s of start"),
                    ));
                }
                Incoming::Closed => {
                    let how = process.wait_exit(Duration::from_secs(1)).unwrap_or_else(|| "closed stdout".into());
                    return Err(self.failed(&process, FaultKind::Startup, format!("ended before its name ({how})")));
                }
            }
        }
        if let Dialect::Course { color_line, .. } = &self.dialect {
            process.send(color_line);
        }
        process.pause();
        self.process = Some(process);
        Ok(())
    }

    /// The fault of a process that is being given up on, with its stderr kept.
    fn failed(&mut self, process: &AgentProcess, kind: FaultKind, detail: impl Into<String>) -> Fault {
        self.keep_stderr(process);
        self.fault(kind, detail)
    }

    fn keep_stderr(&mut self, process: &AgentProcess) {
        let tail = process.stderr_tail();
        if !tail.is_empty() {
            self.last_stderr = tail;
        }
    }

    /// Ends the current process (it will be started again on demand).
    fn retire(&mut self) {
        if let Some(mut p) = self.process.take() {
            p.kill();
            self.keep_stderr(&p);
        }
    }

    /// Gets the agent ready for its turn: started if need be, everything it wrote since its last turn judged by
    /// `judge` (an `Err` is a protocol fault with that detail), a death between turns noticed, and it running.
    ///
    /// # Errors
    /// The fault that loses the game.
    fn next_turn(
        &mut self,
        clock: &TimeControl,
        mut judge: impl FnMut(&str) -> Result<(), String>,
    ) -> Result<AgentProcess, Fault> {
        self.start(clock)?;
        let Some(mut process) = self.process.take() else {
            return Err(self.fault(FaultKind::Startup, "not running"));
        };
        loop {
            match process.recv(Instant::now()) {
                Incoming::Line(line) => {
                    if let Err(detail) = judge(&line) {
                        return Err(self.failed(&process, FaultKind::Garbage, detail));
                    }
                }
                Incoming::Bad(what) => {
                    return Err(self.failed(&process, FaultKind::Garbage, format!("sent {what}")));
                }
                Incoming::Timeout => break,
                Incoming::Closed => {
                    process.resume();
                    let how = process.wait_exit(Duration::from_secs(1)).unwrap_or_else(|| "closed stdout".into());
                    return Err(self.failed(&process, FaultKind::Crashed, format!("ended between its turns ({how})")));
                }
            }
        }
        process.resume();
        Ok(process)
    }

    /// Plays one turn: `go` with `position`, collects moves until `done` or the deadline, sends `stop` at the time
    /// limit and waits out the tolerance. Leaves the agent frozen (or retired, to be restarted) afterwards.
    ///
    /// # Errors
    /// The fault that loses the game: no move, garbage, a crash, a failed (re)start.
    /// In the course dialect `position` is sent as it is (the `SCORE` line and the board) and the turn ends at the
    /// first move line; there is no `stop`: past the limit and the tolerance the agent is killed and loses.
    pub fn turn(&mut self, position: &str, clock: &TimeControl) -> Result<Played, Fault> {
        if let Dialect::Course { chatter, .. } = self.dialect {
            return self.course_turn(position, clock, chatter);
        }
        let mut process = self.next_turn(clock, |line| match protocol::parse_reply(line) {
            Ok(_) => Ok(()),
            Err(_) => Err(format!("sent '{}'", clip(line))),
        })?;
        let millis = clock.per_move.as_millis() as u64;
        let start = Instant::now();
        process.send(&protocol::go(millis, position));
        let stop_at = start + clock.per_move;
        let final_at = stop_at + clock.tolerance;
        let mut latest: Option<String> = None;
        let mut stale: Option<String> = None;
        let mut info = None;
        let mut stopped = false;
        let mut restart = false;
        let mut finished = false;
        while !finished {
            let now = Instant::now();
            if !stopped && now >= stop_at {
                process.send(protocol::STOP);
                stopped = true;
            }
            let wait_until = if stopped { final_at } else { stop_at };
            match process.recv(wait_until) {
                Incoming::Line(line) => match protocol::parse_reply(&line) {
                    Ok(Reply::Move(word)) => latest = Some(word),
                    Ok(Reply::Stale(word)) => stale = Some(word),
                    Ok(Reply::Info(text)) => info = Some(text),
                    Ok(Reply::Done { restart: r }) => {
                        restart = r;
                        finished = true;
                    }
                    Ok(Reply::Name(_)) | Err(_) => {
                        return Err(self.failed(&process, FaultKind::Garbage, format!("sent '{}'", clip(&line))));
                    }
                },
                Incoming::Bad(what) => {
                    return Err(self.failed(&process, FaultKind::Garbage, format!("sent {what}")));
                }
                Incoming::Timeout => {
                    if stopped {
                        // Past the tolerance without `done`: the move it holds counts; the process goes.
                        restart = true;
                        finished = true;
                    }
                }
                Incoming::Closed => {
                    if !stopped {
                        let how = process.wait_exit(Duration::from_secs(1)).unwrap_or_else(|| "closed stdout".into());
                        return Err(self.failed(
                            &process,
                            FaultKind::Crashed,
                            format!("ended during its turn ({how})"),
                        ));
                    }
                    restart = true;
                    finished = true;
                }
            }
        }
        let elapsed = start.elapsed();
        if restart {
            process.wait_exit(Duration::from_millis(200));
            self.process = Some(process);
            self.retire();
        } else {
            process.pause();
            self.process = Some(process);
        }
        match latest {
            Some(word) => Ok(Played { word, elapsed, info, stopped: restart }),
            None => {
                let secs = clock.per_move.as_secs_f64();
                let detail = match stale {
                    Some(old) => format!(
                        "never set its move within {secs} s (it still held {old} from an earlier turn, which the \
                         course framework would have played)"
                    ),
                    None if stopped => format!("no move within {secs} s"),
                    None => "ended its turn without a move".to_string(),
                };
                let detail = match info {
                    Some(info) => format!("{detail} (its last info: {info})"),
                    None => detail,
                };
                Err(self.fault(FaultKind::NoMove, detail))
            }
        }
    }

    /// Tells it the game is over (`quit`; nothing more in the course dialect) and makes sure its processes are gone.
    pub fn finish(&mut self) {
        let last = match self.dialect {
            Dialect::Referee(_) => Some(protocol::QUIT),
            Dialect::Course { .. } => None,
        };
        self.finish_with(last);
    }

    /// Sends `last` (if any; flushed), closes its stdin, gives it a moment to exit, and makes sure its processes
    /// are gone.
    pub fn finish_with(&mut self, last: Option<&str>) {
        if let Some(mut p) = self.process.take() {
            p.resume();
            if let Some(line) = last {
                p.send(line);
            }
            p.close_stdin();
            p.wait_exit(Duration::from_millis(300));
            p.kill();
            self.keep_stderr(&p);
        }
    }
}

impl Drop for Agent {
    fn drop(&mut self) {
        self.finish();
    }
}

/// `line` cut to 120 characters for a record.
pub fn clip(line: &str) -> String {
    let mut out: String = line.chars().take(120).collect();
    if out.len() < line.len() {
        out.push_str("...");
    }
    out
}
