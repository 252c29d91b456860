//! `referee bench harness`: what grading costs on top of the submissions' own run time.
//!
//! A class of trivial Python or Java submissions (each prints the official answer of the built-in stats suite) is run four
//! ways: every command bare (spawn, capture, wait) one after another and with `--jobs` threads, then graded as a
//! class with `-j 1` and `-j JOBS` (scratch copies, sandbox user and layers, limits, launcher, comparison, result
//! files). Then the sandbox's own setup per run: `true` run through the runner with and without the layers.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::cli::{exit, BenchArgs, BenchLang};
use crate::harness::grade::class::{discover, grade_class, make_traversable, Store};
use crate::harness::grade::{for_each_parallel, GradeConfig, PreparedSuite};
use crate::harness::runner::phases::{self, Phase};
use crate::harness::runner::{self, Limits, RunSpec, Sandbox, Template};
use crate::harness::suite::{builtin, Expected};

/// Rounds of the four measurements; each is reported as its median.
const ROUNDS: usize = 5;

fn python_source(answers: &[(String, String)]) -> String {
    let mut s = String::from("import sys\nANSWERS = {\n");
    for (args, text) in answers {
        s.push_str(&format!("    {args:?}: {text:?},\n"));
    }
    s + "}\nsys.stdout.write(ANSWERS.get(' '.join(sys.argv[1:]), ''))\n"
}

fn java_source(answers: &[(String, String)]) -> String {
    let quote = |t: &str| format!("{t:?}");
    let mut s = String::from(
        "public class TakeStones {\n  public static void main(String[] a) {\n    String k = String.join(\" \", a);\n",
    );
    for (args, text) in answers {
        s.push_str(&format!("    if (k.equals({})) System.out.print({});\n", quote(args), quote(text)));
    }
    s + "  }\n}\n"
}

/// CPU time used so far by this process and the children it has waited for (`/proc/self/stat`: utime, stime,
/// cutime, cstime, in ticks of 10 ms), or zero where it cannot be read. Unlike wall time it barely moves when
/// other work shares the machine, so the overhead it shows survives a loaded benchmark.
pub(crate) fn cpu_now() -> Duration {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else { return Duration::ZERO };
    let Some((_, rest)) = stat.rsplit_once(") ") else { return Duration::ZERO };
    // After the command name: state is field 3 of the line, utime field 14.
    let ticks: u64 = rest.split(' ').skip(11).take(4).filter_map(|f| f.parse::<u64>().ok()).sum();
    Duration::from_millis(ticks * 10)
}

/// What a measurement took: wall-clock and CPU time.
#[derive(Clone, Copy, Debug, Default)]
struct Took {
    wall: Duration,
    cpu: Duration,
}

fn timed<E>(f: impl FnOnce() -> Result<(), E>) -> Result<Took, E> {
    let (start, cpu) = (Instant::now(), cpu_now());
    f()?;
    Ok(Took { wall: start.elapsed(), cpu: cpu_now().saturating_sub(cpu) })
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

/// Runs the four measurements and prints them.
pub fn run(args: &BenchArgs, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    match measure(args, out) {
        Ok(()) => exit::SUCCESS,
        Err(message) => {
            let _ = writeln!(err, "referee bench harness: {message}");
            exit::INTERNAL
        }
    }
}

fn python() -> String {
    ["/usr/bin/python3", "/usr/local/bin/python3"]
        .iter()
        .find(|p| Path::new(p).exists())
        .map_or("python3".into(), |p| p.to_string())
}

fn measure(args: &BenchArgs, out: &mut dyn Write) -> Result<(), String> {
    let suite = builtin::suite("takestones-stats-2019").map_err(|e| e.to_string())?;
    let work = tempfile::tempdir().map_err(|e| e.to_string())?;
    make_traversable(work.path()).map_err(|e| e.to_string())?;
    let class = work.path().join("class");
    // The trivial submission: look the answer up and print it.
    let answers: Vec<(String, String)> = suite
        .cases
        .iter()
        .filter_map(|c| match &c.expected {
            Expected::Text(t) => Some((c.args.join(" "), t.clone())),
            Expected::Reference => None,
        })
        .collect();
    let students = args.students.max(1);
    let java = args.lang == BenchLang::Java;
    let dirs: Vec<std::path::PathBuf> = (0..students).map(|i| class.join(format!("s{i:03}-HW2-P3"))).collect();
    for dir in &dirs {
        std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
        if java {
            std::fs::write(dir.join("TakeStones.java"), java_source(&answers)).map_err(|e| e.to_string())?;
            let ok = Command::new("javac").arg("-d").arg(dir).arg(dir.join("TakeStones.java")).status();
            if !ok.is_ok_and(|s| s.success()) {
                return Err("javac failed (is a JDK installed?)".into());
            }
        } else {
            std::fs::write(dir.join("takestones.py"), python_source(&answers)).map_err(|e| e.to_string())?;
        }
    }
    let python = python();
    let template = if java {
        "java -cp {dir} TakeStones {args}".to_string()
    } else {
        format!("{python} {{dir}}/takestones.py {{args}}")
    };
    let command = Template::parse(&template, false).map_err(|e| e.to_string())?;
    let runs: Vec<(std::ffi::OsString, Vec<std::ffi::OsString>)> = dirs
        .iter()
        .flat_map(|dir| suite.cases.iter().map(|c| command.expand(dir, &c.args)).collect::<Vec<_>>())
        .collect();
    let bare = |jobs: usize| {
        let took = timed(|| {
            for_each_parallel(
                &runs,
                jobs,
                |(program, a)| {
                    let output = Command::new(program).args(a).stdin(Stdio::null()).output();
                    output.map(|o| o.status.success()).unwrap_or(false)
                },
                |_, _| {},
            );
            Ok::<(), String>(())
        });
        took.unwrap_or_default()
    };
    let jobs = args.jobs.max(1);
    let prepared = PreparedSuite::new(suite);
    let entries = discover(&class).map_err(|e| e.to_string())?;
    let graded = |j: usize, tag: &str| -> Result<Took, String> {
        let config = GradeConfig {
            command: command.clone(),
            build: None,
            limits: Limits::default(),
            build_timeout: Duration::from_secs(60),
            sandbox: Sandbox::default_for_this_process(),
            case_jobs: 1,
            cancel: Arc::new(AtomicBool::new(false)),
            run_id: tag.to_string(),
            max_timeouts: None,
        };
        let out_dir = work.path().join(format!("out-{tag}"));
        let store = Store::open(&out_dir).map_err(|e| e.to_string())?;
        let scratch = work.path().join(format!("scratch-{tag}"));
        make_traversable(&scratch).map_err(|e| e.to_string())?;
        let mut saved = 0;
        let took = timed(|| {
            grade_class(
                &entries,
                &prepared,
                &config,
                j,
                &store,
                &scratch,
                |_| {},
                |_, r| {
                    saved += usize::from(r.is_ok());
                },
            )
            .map(|_| ())
            .map_err(|_| "cancelled".to_string())
        })?;
        if saved != entries.len() {
            return Err(format!("only {saved} of {} results were stored", entries.len()));
        }
        Ok(took)
    };
    // Warm the page cache and the interpreter once, then interleave the four measurements over several rounds and
    // keep each one's median: on a shared 2-core machine single timings swing by 10%.
    let _ = bare(1);
    let (mut b1, mut g1, mut bj, mut gj) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut steps: Vec<Vec<Duration>> = vec![Vec::new(); Phase::ALL.len()];
    for round in 0..ROUNDS {
        b1.push(bare(1));
        let before = phases::totals();
        g1.push(graded(1, &format!("j1-{round}"))?);
        for (i, ((_, after), (_, before))) in phases::totals().into_iter().zip(before).enumerate() {
            steps[i].push(after.saturating_sub(before));
        }
        bj.push(bare(jobs));
        gj.push(graded(jobs, &format!("jn-{round}"))?);
    }
    if std::env::var_os("REFEREE_BENCH_VERBOSE").is_some() {
        let _ = writeln!(out, "rounds: bare-1 {b1:?}\n graded-1 {g1:?}\n bare-j {bj:?}\n graded-j {gj:?}");
    }
    let wall = |v: &[Took]| median(v.iter().map(|t| t.wall).collect());
    let cpu = |v: &[Took]| median(v.iter().map(|t| t.cpu).collect());
    let (bare_1, graded_1, bare_j, graded_j) = (wall(&b1), wall(&g1), wall(&bj), wall(&gj));
    let n = runs.len() as f64;
    let line = |label: &str, d: Duration| {
        format!("{label:<28} {:>8.3} s  {:>7.2} ms/run", d.as_secs_f64(), d.as_secs_f64() * 1e3 / n)
    };
    let pct = |a: Duration, b: Duration| (a.as_secs_f64() / b.as_secs_f64() - 1.0) * 100.0;
    let per_run = |d: Duration| d.as_secs_f64() * 1e3 / n;
    let _ = writeln!(
        out,
        "harness overhead: {students} trivial {} submissions x {} cases = {} runs (median of {ROUNDS} rounds), {}",
        if java { "Java" } else { "Python" },
        prepared.suite.cases.len(),
        runs.len(),
        if Sandbox::default_for_this_process().identity.is_some() {
            "sandboxed as per-student users"
        } else {
            "as this user"
        }
    );
    let layers = Sandbox::default_for_this_process().layers.names();
    let _ = writeln!(out, "sandbox layers: {}", if layers.is_empty() { "none".into() } else { layers.join(", ") });
    let _ = writeln!(out, "{}", line("bare, sequential", bare_1));
    let _ = writeln!(out, "{}  overhead {:+.1}%", line("graded, -j 1", graded_1), pct(graded_1, bare_1));
    let _ = writeln!(out, "{}", line(&format!("bare, {jobs} threads"), bare_j));
    let _ = writeln!(out, "{}  overhead {:+.1}%", line(&format!("graded, -j {jobs}"), graded_j), pct(graded_j, bare_j));
    let _ = writeln!(out, "speed-up of -j {jobs} over -j 1: {:.2}x", graded_1.as_secs_f64() / graded_j.as_secs_f64());
    // CPU time of the grader and everything it ran (10 ms ticks): what grading costs whatever else loads the machine.
    let (cpu_bare, cpu_graded) = (cpu(&b1), cpu(&g1));
    let _ = writeln!(
        out,
        "CPU time, -j 1: bare {:.2} ms/run, graded {:.2} ms/run, overhead {:+.1}%",
        per_run(cpu_bare),
        per_run(cpu_graded),
        pct(cpu_graded, cpu_bare)
    );
    print_steps(&steps, n, per_run(bare_1), out);
    setup_cost(work.path(), out)?;
    if !java {
        let first: Vec<String> =
            answers.first().map(|(a, _)| a.split(' ').map(String::from).collect()).unwrap_or_default();
        python_in_place(work.path(), &python, &python_source(&answers), &first, out)?;
    }
    Ok(())
}

/// One trivial Python run, bare and through the runner with the launcher and every layer, in a folder of the
/// sandbox user's that is neither copied nor removed: what the launch alone adds to a Python program, the floor
/// under every grading step.
fn python_in_place(
    work: &Path,
    python: &str,
    source: &str,
    args: &[String],
    out: &mut dyn Write,
) -> Result<(), String> {
    const RUNS: usize = 30;
    let dir = work.join("in-place");
    make_traversable(&dir).map_err(|e| e.to_string())?;
    std::fs::write(dir.join("takestones.py"), source).map_err(|e| e.to_string())?;
    let (sandbox, _lease) = Sandbox::default_for_this_process().lease();
    crate::harness::runner::sandbox::hand_over(&dir, &sandbox).map_err(|e| e.to_string())?;
    let mut argv: Vec<std::ffi::OsString> = vec![dir.join("takestones.py").into()];
    argv.extend(args.iter().map(Into::into));
    let bare = || {
        let start = Instant::now();
        let _ = Command::new(python).args(&argv).stdin(Stdio::null()).output();
        start.elapsed()
    };
    let through = || -> Result<Duration, String> {
        let spec = RunSpec {
            program: python.into(),
            args: argv.clone(),
            cwd: dir.clone(),
            stdin: None,
            env: Vec::new(),
            limits: Limits::default(),
            sandbox: sandbox.clone(),
            cancel: None,
        };
        let start = Instant::now();
        runner::run(&spec).map_err(|e| e.to_string())?;
        Ok(start.elapsed())
    };
    let _ = (bare(), through()?);
    let (mut b, mut t) = (Vec::new(), Vec::new());
    let (mut cpu_b, mut cpu_t) = (Duration::ZERO, Duration::ZERO);
    for _ in 0..RUNS {
        let cpu = cpu_now();
        b.push(bare());
        let between = cpu_now();
        t.push(through()?);
        cpu_b += between.saturating_sub(cpu);
        cpu_t += cpu_now().saturating_sub(between);
    }
    let (b, t) = (median(b).as_secs_f64() * 1e3, median(t).as_secs_f64() * 1e3);
    let (cpu_b, cpu_t) = (cpu_b.as_secs_f64() * 1e3 / RUNS as f64, cpu_t.as_secs_f64() * 1e3 / RUNS as f64);
    let _ = writeln!(
        out,
        "a Python run in place (no copy, no removal; median of {RUNS}): bare {b:.2} ms, through the runner with the \
         launcher and every layer {t:.2} ms ({:+.2} ms, {:+.1}%); CPU {cpu_b:.2} ms against {cpu_t:.2} ms ({:+.1}%)",
        t - b,
        (t / b - 1.0) * 100.0,
        (cpu_t / cpu_b - 1.0) * 100.0
    );
    Ok(())
}

/// Where graded `-j 1` spends its time per run, step by step (median of the rounds), beside the bare run.
fn print_steps(steps: &[Vec<Duration>], runs: f64, bare: f64, out: &mut dyn Write) {
    let ms: Vec<f64> = steps.iter().map(|v| median(v.clone()).as_secs_f64() * 1e3 / runs).collect();
    let each: Vec<String> = Phase::ALL.iter().zip(&ms).map(|(phase, m)| format!("{} {m:.2}", phase.name())).collect();
    let _ = writeln!(out, "graded -j 1 per run, ms by step (median of {ROUNDS}): {}", each.join(", "));
    let program = Phase::ALL.iter().position(|&p| p == Phase::Program).map_or(0.0, |i| ms[i]);
    let others: f64 = ms.iter().sum::<f64>() - program;
    let _ = writeln!(
        out,
        "  launch+program {program:.2} ms against {bare:.2} bare ({:+.2}); every other step {others:.2} ms",
        program - bare
    );
}

/// Runs of `true` through the runner, with and without the sandbox layers: the difference of the medians is what
/// the layers cost each run (the launcher's second process, namespaces, the private /proc and temporary folders,
/// Landlock, seccomp, the cgroup).
/// Each layer is also timed alone (the PID layer both ways: a namespace of its own, and with the cgroup the
/// grader's shared `hidepid` /proc), the variants interleaved so a change in the machine's load hits them alike.
fn setup_cost(work: &Path, out: &mut dyn Write) -> Result<(), String> {
    use crate::harness::runner::layers::Layers;
    const RUNS: usize = 40;
    // A uid of its own, as each graded submission gets.
    let (with, _lease) = Sandbox::default_for_this_process().lease();
    let all = with.layers;
    let none = Layers::default();
    let variants: Vec<(&str, Layers)> = vec![
        ("none", none),
        ("landlock", Layers { landlock: all.landlock, ..none }),
        ("network", Layers { network: all.network, ..none }),
        ("pid (own namespace)", Layers { pid: all.pid, ..none }),
        ("ipc", Layers { ipc: all.ipc, ..none }),
        ("mount (private /tmp, /run)", Layers { mount: all.mount, ..none }),
        ("seccomp", Layers { seccomp: all.seccomp, ..none }),
        ("cgroup", Layers { cgroup: all.cgroup, ..none }),
        ("pid + cgroup", Layers { pid: all.pid, cgroup: all.cgroup, ..none }),
        ("all", all),
    ];
    let dir = work.join("setup");
    make_traversable(&dir).map_err(|e| e.to_string())?;
    // `true` through the runner in `sandbox`.
    let through = |sandbox: Sandbox| -> Result<Duration, String> {
        let spec = RunSpec {
            program: "true".into(),
            args: Vec::new(),
            cwd: dir.clone(),
            stdin: None,
            env: Vec::new(),
            limits: Limits::default(),
            sandbox,
            cancel: None,
        };
        let start = Instant::now();
        runner::run(&spec).map_err(|e| e.to_string())?;
        Ok(start.elapsed())
    };
    let once = |layers: Layers| through(Sandbox { layers, ..with.clone() });
    // Without the launcher: `true` spawned bare, and through the runner as the grader's own user.
    let plain = || {
        let start = Instant::now();
        let _ = Command::new("true").stdin(Stdio::null()).output();
        start.elapsed()
    };
    let runner_only = || through(Sandbox { identity: None, layers: none, ..Sandbox::default() });
    let _ = once(all)?;
    let mut times: Vec<Vec<Duration>> = vec![Vec::new(); variants.len()];
    let (mut plain_times, mut runner_times) = (Vec::new(), Vec::new());
    for _ in 0..RUNS {
        plain_times.push(plain());
        runner_times.push(runner_only()?);
        for (i, (_, layers)) in variants.iter().enumerate() {
            times[i].push(once(*layers)?);
        }
    }
    let ms: Vec<f64> = times.into_iter().map(|t| median(t).as_secs_f64() * 1e3).collect();
    let (bare, sandboxed) = (ms[0], ms[ms.len() - 1]);
    let _ = writeln!(
        out,
        "sandbox setup per run: {:.2} ms (`true` through the runner: {bare:.2} ms without the layers, {sandboxed:.2} \
         ms with; median of {RUNS})",
        sandboxed - bare,
    );
    let each: Vec<String> =
        variants.iter().zip(&ms).skip(1).map(|((name, _), m)| format!("{name} {:+.2}", m - bare)).collect();
    let _ = writeln!(out, "  per layer, ms over none: {}", each.join(", "));
    let (plain, runner_only) = (median(plain_times).as_secs_f64() * 1e3, median(runner_times).as_secs_f64() * 1e3);
    let _ = writeln!(
        out,
        "  `true` spawned bare {plain:.2} ms; through the runner as this user, without the launcher, {runner_only:.2} \
         ms; with the launcher (and a sandbox user, if root) and no layer {bare:.2} ms"
    );
    Ok(())
}
