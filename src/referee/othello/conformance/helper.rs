//! The Python helper (`python/conformance.py`) as a process: started in its own sandboxed process group in a fresh
//! copy of the module's folder ([`super::folder`]), asked one JSON line at a time under a wall clock, and ended
//! (its copy discarded, the next call getting a fresh process in a fresh copy) when a call overstays, ends Python,
//! or leaves the folder changed.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use serde::Deserialize;
use serde_json::Value;

use super::folder::{Copies, Snapshot};
use super::function::{Form, Function};
use super::oracle::Oracle;
use crate::harness::grade::CaseCopy;
use crate::referee::process::{AgentProcess, Incoming, Launch};

/// Python's own start-up gets this much on top of the per-call timeout (the import is timed like a call).
const STARTUP: Duration = Duration::from_secs(5);

/// What the helper says after importing the student's module.
#[derive(Clone, Debug, Deserialize)]
pub struct Hello {
    /// The module's name (the file's stem).
    pub module: String,
    /// What the import raised, if anything (the functions defined before it are still there).
    pub import_error: Option<String>,
    /// Each template function's form and signature.
    pub functions: BTreeMap<String, FunctionInfo>,
}

/// One function as the helper found it.
#[derive(Clone, Debug, Deserialize)]
pub struct FunctionInfo {
    /// How it is called.
    pub form: Form,
    /// `(board, color, limit, caching=0)` when it exists; what the name holds when it is not a function.
    pub signature: Option<String>,
    /// The switches (`caching`, `ordering`) it takes by name.
    #[serde(default)]
    pub switches: Vec<String>,
}

/// Why the helper could not be brought up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StartError {
    /// Python itself could not run the helper: the environment's fault.
    Python(String),
    /// The student's module hung or ended Python while being imported (the student's fault): Python's version
    /// and what happened.
    Import(String, String),
}

/// The outcome of one call.
#[derive(Clone, Debug, PartialEq)]
pub enum Reply {
    /// The function returned this (tuples as lists, infinities as strings).
    Ok(Value),
    /// It raised: type, message and where.
    Raised(String),
    /// No answer within the timeout; the helper was killed.
    Timeout,
    /// The helper died or could not be restarted (the text says how).
    Died(String),
}

/// A running helper, started again (in a fresh copy) on demand after it ended.
pub struct Helper {
    launch: Launch,
    timeout: Duration,
    process: Option<AgentProcess>,
    copies: Copies,
    /// The folder the process runs in (declared after it: dropped, so discarded, once the process is dead).
    copy: Option<CaseCopy>,
    /// What the folder held once the module was imported: a call that leaves it otherwise ends the process.
    imported: Option<Snapshot>,
    /// Why the grader could not go on (a copy it could not make, Python that would not start again): never the
    /// student's doing, so the check is the grader's failure rather than the student's errors.
    harness: Option<String>,
    /// Python's version, from the first start.
    pub python: String,
    next_id: u64,
    /// Why a restart failed: every later call fails at once instead of waiting for another.
    broken: Option<String>,
    /// Node-function calls the last answered call made (counted by the helper).
    pub last_calls: Option<u64>,
    /// The calls the last isolated call made itself (see [`super::isolate`]).
    last_log: Vec<Value>,
}

impl Helper {
    /// Starts the helper in a fresh copy from `copies` (`launch`'s working folder is each copy's) and waits for
    /// the student's module to be imported.
    ///
    /// # Errors
    /// [`StartError`] saying whose fault it is.
    pub fn start(launch: Launch, copies: Copies, timeout: Duration) -> Result<(Helper, Hello), StartError> {
        let mut helper = Helper {
            launch,
            timeout,
            process: None,
            copies,
            copy: None,
            imported: None,
            harness: None,
            python: String::new(),
            next_id: 0,
            broken: None,
            last_calls: None,
            last_log: Vec::new(),
        };
        let hello = helper.restart()?;
        Ok((helper, hello))
    }

    /// Starts a fresh process in a fresh copy (ending any old one and discarding its copy) and reads its two
    /// greeting lines; takes the snapshot of the folder the import left.
    fn restart(&mut self) -> Result<Hello, StartError> {
        self.kill();
        let copy = self.copies.fresh().map_err(StartError::Python)?;
        self.launch.cwd = copy.dir().to_path_buf();
        self.copy = Some(copy);
        let mut process = AgentProcess::spawn(&self.launch)
            .map_err(|e| StartError::Python(format!("cannot start {}: {e}", self.program())))?;
        let started = match process.recv(Instant::now() + STARTUP + self.timeout) {
            Incoming::Line(line) => serde_json::from_str::<Value>(&line)
                .ok()
                .and_then(|v| v.get("started").and(v.get("python")).and_then(Value::as_str).map(String::from)),
            _ => None,
        };
        let Some(version) = started else {
            let why = died(&mut process);
            return Err(StartError::Python(format!("{} could not run the conformance helper: {why}", self.program())));
        };
        self.python = version;
        match process.recv(Instant::now() + STARTUP + self.timeout) {
            Incoming::Line(line) => match serde_json::from_str::<Hello>(&line) {
                Ok(hello) => {
                    self.process = Some(process);
                    self.imported = Snapshot::take(&self.launch.cwd);
                    Ok(hello)
                }
                // Written after the import began: the module wrote into the helper's channel.
                Err(e) => {
                    process.kill();
                    Err(StartError::Import(
                        self.python.clone(),
                        format!("importing the module broke the check's channel (it wrote on it): {e}"),
                    ))
                }
            },
            Incoming::Timeout => {
                process.kill();
                Err(StartError::Import(
                    self.python.clone(),
                    format!(
                        "importing the module did not finish within {} (does it run a game or read stdin at import?)",
                        seconds(self.timeout)
                    ),
                ))
            }
            Incoming::Closed | Incoming::Bad(_) => {
                let why = died(&mut process);
                Err(StartError::Import(self.python.clone(), format!("Python ended while importing the module: {why}")))
            }
        }
    }

    fn program(&self) -> String {
        self.launch.program.to_string_lossy().into_owned()
    }

    /// Calls one function: `request` is the call without its id. A call that overstays, ends Python or leaves
    /// the folder other than the import left it gets the helper ended and a fresh one started, in a fresh copy,
    /// for the next call.
    pub fn call(&mut self, request: &Value) -> Reply {
        let reply = self.ask(request);
        let changed = match (&self.imported, &self.copy) {
            (Some(imported), Some(copy)) => !imported.unchanged(copy.dir()),
            _ => true,
        };
        if changed {
            self.kill();
        }
        reply
    }

    fn ask(&mut self, request: &Value) -> Reply {
        if let Some(why) = &self.broken {
            return Reply::Died(why.clone());
        }
        if self.process.is_none() {
            let why = match self.restart() {
                Ok(_) => None,
                Err(StartError::Import(_, why)) => Some(why),
                Err(StartError::Python(why)) => {
                    self.harness.get_or_insert(why.clone());
                    Some(why)
                }
            };
            if let Some(why) = why {
                let why = format!("not run: Python could not be started again for it: {why}");
                self.broken = Some(why.clone());
                return Reply::Died(why);
            }
        }
        let Some(process) = self.process.as_mut() else { return Reply::Died("no helper process".into()) };
        self.next_id += 1;
        self.last_calls = None;
        self.last_log.clear();
        let mut request = request.clone();
        request["id"] = Value::from(self.next_id);
        // Only an isolated call has the reference's stand-ins answered, and only for the other functions.
        let isolating = request.get("isolate").and_then(Value::as_bool).unwrap_or(false);
        // The function under test: the one `replaced` names (a proof's request, which asks the reference's
        // `call` over it), else the one called.
        let under_test = request.get("replaced").or_else(|| request.get("call"));
        let tested = under_test.and_then(Value::as_str).and_then(|n| Function::ALL.into_iter().find(|f| f.name() == n));
        process.send(&request.to_string());
        let deadline = Instant::now() + self.timeout;
        loop {
            match process.recv(deadline) {
                Incoming::Line(line) => {
                    let Ok(reply) = serde_json::from_str::<Value>(&line) else {
                        return Reply::Died(format!("the helper wrote an unreadable line: {line}"));
                    };
                    if reply.get("id").and_then(Value::as_u64) != Some(self.next_id) {
                        continue;
                    }
                    if reply.get("ref").is_some() {
                        let served = match tested.filter(|_| isolating) {
                            Some(tested) => Oracle::new(process, tested, self.next_id, deadline).serve(&reply),
                            None => refuse(process),
                        };
                        if let Err(reply) = served {
                            self.kill();
                            return reply;
                        }
                        continue;
                    }
                    self.last_calls = reply.get("calls").and_then(Value::as_u64);
                    self.last_log = reply.get("log").and_then(Value::as_array).cloned().unwrap_or_default();
                    return match (reply.get("ok"), reply.get("error").and_then(Value::as_str)) {
                        (_, Some(error)) => Reply::Raised(error.to_string()),
                        (Some(value), None) => Reply::Ok(value.clone()),
                        (None, None) => Reply::Died(format!("the helper's reply has no answer: {line}")),
                    };
                }
                Incoming::Timeout => {
                    self.kill();
                    return Reply::Timeout;
                }
                Incoming::Closed | Incoming::Bad(_) => {
                    let why = died(process);
                    self.kill();
                    return Reply::Died(format!("Python ended during the call: {why}"));
                }
            }
        }
    }

    /// [`Helper::call`], with the calls the function made itself when the request isolates it.
    pub fn call_logged(&mut self, request: &Value) -> (Reply, Vec<Value>) {
        let reply = self.call(request);
        (reply, std::mem::take(&mut self.last_log))
    }

    /// Ends the helper's whole process group, then discards its folder.
    pub fn kill(&mut self) {
        if let Some(mut process) = self.process.take() {
            process.kill();
        }
        self.imported = None;
        self.copy = None;
    }

    /// Why the grader could not go on, if it could not (see [`Helper::call`]).
    pub fn harness_error(&self) -> Option<&str> {
        self.harness.as_deref()
    }
}

impl Drop for Helper {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Answers a stand-in request made outside an isolated call (the helper makes none: a module forged it) with an
/// exception for the caller.
fn refuse(process: &mut AgentProcess) -> Result<(), Reply> {
    let refusal = serde_json::json!({ "raise": "RuntimeError", "message": "the grader answers no such request" });
    if process.send(&refusal.to_string()) {
        Ok(())
    } else {
        Err(Reply::Died(format!("Python ended during the call: {}", died(process))))
    }
}

/// How a process that stopped talking ended, with the last lines of its stderr.
pub(super) fn died(process: &mut AgentProcess) -> String {
    let exit = process.wait_exit(Duration::from_secs(2)).unwrap_or_else(|| "it stopped answering".into());
    let tail = process.stderr_tail();
    let last: Vec<&str> = tail.lines().rev().filter(|l| !l.trim().is_empty()).take(3).collect();
    if last.is_empty() {
        exit
    } else {
        let lines: Vec<&str> = last.into_iter().rev().collect();
        format!("{exit}; stderr ends: {}", lines.join(" | "))
    }
}

/// `10s`, `1.5s`.
pub fn seconds(d: Duration) -> String {
    format!("{}s", (d.as_secs_f64() * 1000.0).round() / 1000.0)
}
