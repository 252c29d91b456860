//! `referee bench similar`: a generated class of `--students` Java hand-ins of about 300 lines (a shared starter
//! file, a program of its own, one in twenty a disguised copy of another's), compared as `referee similar` does;
//! prints the time, the peak memory and the pairs, and how many of the planted copies are listed.

use std::io::Write;
use std::time::Instant;

use crate::cli::{exit, BenchArgs, SimilarArgs, SimilarLang};
use crate::rng::Rng;
use crate::similar::bench::disguise::{disguise, Disguise};
use crate::similar::bench::generate::program;
use crate::similar::Lang;

/// The starter file every generated hand-in holds (the template).
fn starter() -> String {
    let mut rng = Rng::new(540);
    program(Lang::Java, 40, &mut rng).replacen("public class Solver", "class Starter", 1)
}

/// Runs the benchmark.
pub fn run(args: &BenchArgs, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    let students = args.students.clamp(2, 100_000);
    let dir = match tempfile::tempdir() {
        Ok(dir) => dir,
        Err(e) => {
            let _ = writeln!(err, "referee bench similar: cannot make a temporary folder: {e}");
            return exit::INTERNAL;
        }
    };
    let class = dir.path().join("class");
    let template = dir.path().join("template");
    let started = Instant::now();
    let mut rng = Rng::new(1500);
    let mut planted = Vec::new();
    let mut texts: Vec<String> = Vec::with_capacity(students);
    for i in 0..students {
        let text = if i % 20 == 19 {
            let from = rng.below(i);
            planted.push((from, i));
            disguise(&texts[from], Lang::Java, &Disguise::all(0.10), &mut rng)
        } else {
            program(Lang::Java, 240, &mut rng)
        };
        texts.push(text);
    }
    let written = (|| -> std::io::Result<()> {
        std::fs::create_dir_all(&template)?;
        std::fs::write(template.join("Starter.java"), starter())?;
        for (i, text) in texts.iter().enumerate() {
            let folder = class.join(format!("s{i:05}"));
            std::fs::create_dir_all(&folder)?;
            std::fs::write(folder.join("Starter.java"), starter())?;
            std::fs::write(folder.join("Solution.java"), text)?;
        }
        Ok(())
    })();
    if let Err(e) = written {
        let _ = writeln!(err, "referee bench similar: cannot write the generated class: {e}");
        return exit::INTERNAL;
    }
    let lines: usize = texts.iter().map(|t| t.lines().count()).sum::<usize>() + students * starter().lines().count();
    let _ = writeln!(
        out,
        "generated {students} Java hand-ins, {:.0} lines each on average ({} planted copies) in {:.1} s",
        lines as f64 / students as f64,
        planted.len(),
        started.elapsed().as_secs_f64()
    );
    drop(texts);
    let similar = SimilarArgs {
        submissions: class.clone(),
        template: Some(template),
        lang: SimilarLang::Java,
        out: dir.path().join("out"),
        floor: None,
        cluster: None,
        k: None,
        window: None,
    };
    let started = Instant::now();
    let mut summary = Vec::new();
    let code = super::similar::run(&similar, &mut summary, err);
    let seconds = started.elapsed().as_secs_f64();
    if code != exit::SUCCESS {
        return code;
    }
    let pairs = std::fs::read_to_string(dir.path().join("out/pairs.csv")).unwrap_or_default();
    let listed: std::collections::HashSet<(String, String)> = pairs
        .lines()
        .skip(1)
        .filter_map(|l| {
            let mut cells = l.split(',');
            Some((cells.next()?.to_string(), cells.next()?.to_string()))
        })
        .collect();
    let found = planted.iter().filter(|(a, b)| listed.contains(&(format!("s{a:05}"), format!("s{b:05}")))).count();
    let _ = out.write_all(&summary);
    let _ = writeln!(
        out,
        "referee similar: {students} hand-ins in {seconds:.1} s, peak memory {} MB, {} pair(s) listed, {found} of {} planted copies among them",
        peak_mb().map_or("n/a".into(), |m| m.to_string()),
        listed.len(),
        planted.len()
    );
    exit::SUCCESS
}

/// The process's peak resident memory in MB (Linux: `VmHWM`), if known.
fn peak_mb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024)
}
