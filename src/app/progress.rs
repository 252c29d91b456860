//! Progress of a long run (a class graded, a tournament played) on stderr.
//!
//! On a terminal: a bar whose clock ticks every second, even while one student runs long. Without a terminal (a
//! log file, CI): one line per finished item (`[3/40] alice  4 / 6  all passed  (2.1 s)`), and a heartbeat
//! (`still grading alice (45 s)`) every [`HEARTBEAT`] for an item still running, so a log never goes quiet.

use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How often a long-running item is reported when stderr is not a terminal.
pub const HEARTBEAT: Duration = Duration::from_secs(30);

/// Reports items started and finished; cheap to share between worker threads.
pub struct Progress {
    shared: Arc<Shared>,
    heartbeat: Option<(mpsc::Sender<()>, JoinHandle<()>)>,
}

struct Shared {
    verb: &'static str,
    total: usize,
    out: Output,
    state: Mutex<State>,
}

enum Output {
    Bar(indicatif::ProgressBar),
    Lines(Mutex<Box<dyn Write + Send>>),
}

#[derive(Default)]
struct State {
    done: usize,
    running: BTreeMap<String, Instant>,
}

impl Progress {
    /// Progress on stderr: a ticking bar on a terminal, otherwise lines and heartbeats. `verb` says what is being
    /// done to an item (`grading`, `playing`), `noun` what the items are (`students`, `games`).
    pub fn on_stderr(total: usize, verb: &'static str, noun: &str) -> Progress {
        if std::io::stderr().is_terminal() {
            let bar = indicatif::ProgressBar::new(total as u64);
            let template = format!("{{bar:30}} {{pos}}/{{len}} {noun}  {{elapsed}}  {{msg}}");
            if let Ok(style) = indicatif::ProgressStyle::with_template(&template) {
                bar.set_style(style);
            }
            // Redraws every second, so the elapsed clock moves while one item runs long.
            bar.enable_steady_tick(Duration::from_secs(1));
            Progress::new(total, verb, Output::Bar(bar), None)
        } else {
            Progress::lines(total, verb, Box::new(std::io::stderr()), HEARTBEAT)
        }
    }

    /// Lines into `sink`, with a heartbeat every `every` for an item still running.
    pub fn lines(total: usize, verb: &'static str, sink: Box<dyn Write + Send>, every: Duration) -> Progress {
        Progress::new(total, verb, Output::Lines(Mutex::new(sink)), Some(every))
    }

    fn new(total: usize, verb: &'static str, out: Output, every: Option<Duration>) -> Progress {
        let shared = Arc::new(Shared { verb, total, out, state: Mutex::new(State::default()) });
        let heartbeat = every.map(|every| {
            let (stop, stopped) = mpsc::channel::<()>();
            let shared = shared.clone();
            let handle = std::thread::spawn(move || {
                while let Err(RecvTimeoutError::Timeout) = stopped.recv_timeout(every) {
                    shared.beat(every);
                }
            });
            (stop, handle)
        });
        Progress { shared, heartbeat }
    }

    /// `id` has started.
    pub fn start(&self, id: &str) {
        self.shared.lock().running.insert(id.to_string(), Instant::now());
    }

    /// `id` has finished; `outcome` is its score and status (`4 / 6  all passed`).
    pub fn finish(&self, id: &str, outcome: &str) {
        let (done, took) = {
            let mut state = self.shared.lock();
            state.done += 1;
            (state.done, state.running.remove(id).map(|started| started.elapsed()))
        };
        // What a hand-in chose reaches the TA's terminal only with its hidden characters shown.
        let id = crate::visible::visible(id);
        match &self.shared.out {
            Output::Bar(bar) => {
                bar.set_message(format!("{id} {outcome}"));
                bar.inc(1);
            }
            Output::Lines(sink) => {
                let time = took.map(|t| format!("  ({:.1} s)", t.as_secs_f64())).unwrap_or_default();
                let line = format!("[{done}/{}] {id}  {outcome}{time}", self.shared.total);
                let mut sink = sink.lock().unwrap_or_else(PoisonError::into_inner);
                let _ = writeln!(sink, "{line}");
                let _ = sink.flush();
            }
        }
    }

    /// Ends the progress: clears the bar, stops the heartbeat.
    pub fn close(mut self) {
        self.stop();
    }

    fn stop(&mut self) {
        if let Some((stop, handle)) = self.heartbeat.take() {
            let _ = stop.send(());
            let _ = handle.join();
        }
        if let Output::Bar(bar) = &self.shared.out {
            bar.finish_and_clear();
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.stop();
    }
}

impl Shared {
    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// One line per item that has run for at least `every`.
    fn beat(&self, every: Duration) {
        let Output::Lines(sink) = &self.out else { return };
        let slow: Vec<String> = self
            .lock()
            .running
            .iter()
            .filter(|(_, started)| started.elapsed() >= every)
            .map(|(id, started)| {
                format!("still {} {} ({} s)", self.verb, crate::visible::visible(id), started.elapsed().as_secs())
            })
            .collect();
        let mut sink = sink.lock().unwrap_or_else(PoisonError::into_inner);
        for line in slow {
            let _ = writeln!(sink, "{line}");
        }
        let _ = sink.flush();
    }
}

/// One line on a terminal for a run of unknown length (`referee check`): what has been done so far, redrawn in
/// place as it changes and every second, gone when the run ends. Nothing at all when stderr is not a terminal (a
/// log gets the run's own lines).
pub struct Ticker {
    bar: Option<indicatif::ProgressBar>,
}

impl Ticker {
    /// A ticker on stderr, or a silent one when stderr is not a terminal (or `TERM` is `dumb`).
    pub fn on_stderr() -> Ticker {
        let terminal = std::io::stderr().is_terminal() && std::env::var_os("TERM").map_or(true, |t| t != "dumb");
        let bar = terminal.then(|| {
            let bar = indicatif::ProgressBar::new_spinner();
            if let Ok(style) = indicatif::ProgressStyle::with_template("{spinner} {elapsed} {msg}") {
                bar.set_style(style);
            }
            bar.enable_steady_tick(Duration::from_millis(250));
            bar
        });
        Ticker { bar }
    }

    /// Says what has been done so far.
    pub fn say(&self, message: String) {
        if let Some(bar) = &self.bar {
            bar.set_message(message);
        }
    }

    /// Clears the line.
    pub fn close(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

impl Drop for Ticker {
    fn drop(&mut self) {
        self.close();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Default)]
    struct Sink(Arc<Mutex<Vec<u8>>>);

    impl Write for Sink {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().write(buf)
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl Sink {
        fn text(&self) -> String {
            String::from_utf8(self.0.lock().unwrap().clone()).unwrap()
        }
    }

    #[test]
    fn a_line_per_finished_item_and_a_heartbeat_for_a_slow_one() {
        let sink = Sink::default();
        let progress = Progress::lines(2, "grading", Box::new(sink.clone()), Duration::from_millis(40));
        progress.start("alice");
        progress.start("bob");
        progress.finish("bob", "6 / 6  all passed");
        std::thread::sleep(Duration::from_millis(150));
        progress.finish("alice", "0 / 6  6 case(s) not passed");
        progress.close();
        let text = sink.text();
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[0].starts_with("[1/2] bob  6 / 6  all passed  ("), "{text}");
        assert!(lines.iter().any(|l| l.starts_with("still grading alice (")), "{text}");
        assert!(!lines.iter().any(|l| l.starts_with("still grading bob")), "{text}");
        assert!(lines.last().unwrap().starts_with("[2/2] alice  0 / 6  6 case(s) not passed  ("), "{text}");
    }
}
