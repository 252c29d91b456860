//! An agent as the referee sees it across a game: a process that is started on demand, given its turns under the
//! time control, frozen between them, and started again when it had to be killed.

use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::process::{AgentProcess, Incoming, Launch};
use super::protocol::{self, Reply};

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

/// One side of a game.
#[derive(Debug)]
pub struct Agent {
    /// How it is named on the command line (`builtin:simple`, `jdoePlayer.java`, `cmd:...`).
    pub label: String,
    launch: Launch,
    greeting: String,
    process: Option<AgentProcess>,
    /// The name it gave in answer to the greeting.
    pub display_name: Option<String>,
    /// How many times it was started.
    pub starts: u32,
    last_stderr: String,
}

impl Agent {
    /// An agent that will be started with `launch` and greeted with `greeting`.
    pub fn new(label: String, launch: Launch, greeting: String) -> Agent {
        Agent { label, launch, greeting, process: None, display_name: None, starts: 0, last_stderr: String::new() }
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
        process.send(&self.greeting);
        let until = Instant::now() + clock.startup;
        loop {
            match process.recv(until) {
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
                    return Err(self.failed(
                        &process,
                        FaultKind::Startup,
                        format!("no 'name' line within {secs} s of start"),
                    ));
                }
                Incoming::Closed => {
                    let how = process.wait_exit(Duration::from_secs(1)).unwrap_or_else(|| "closed stdout".into());
                    return Err(self.failed(&process, FaultKind::Startup, format!("ended before its name ({how})")));
                }
            }
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

    /// Plays one turn: `go` with `position`, collects moves until `done` or the deadline, sends `stop` at the time
    /// limit and waits out the tolerance. Leaves the agent frozen (or retired, to be restarted) afterwards.
    ///
    /// # Errors
    /// The fault that loses the game: no move, garbage, a crash, a failed (re)start.
    pub fn turn(&mut self, position: &str, clock: &TimeControl) -> Result<Played, Fault> {
        self.start(clock)?;
        let Some(mut process) = self.process.take() else {
            return Err(self.fault(FaultKind::Startup, "not running"));
        };
        // Anything it wrote since its last turn ended: only a sign of life or death matters.
        loop {
            match process.recv(Instant::now()) {
                Incoming::Line(line) => {
                    if protocol::parse_reply(&line).is_err() {
                        return Err(self.failed(&process, FaultKind::Garbage, format!("sent '{}'", clip(&line))));
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

    /// Tells it the game is over and makes sure its processes are gone.
    pub fn finish(&mut self) {
        if let Some(mut p) = self.process.take() {
            p.resume();
            p.send(protocol::QUIT);
            p.wait_exit(Duration::from_millis(200));
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
