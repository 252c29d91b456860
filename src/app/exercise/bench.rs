//! `referee bench exercise`: the time `exercise make` and `exercise grade` take on a synthetic class (the target:
//! 1,500 students, every problem, sheets and key in under 10 s, answer files graded in under 5 s), and how many
//! of the class's variants and answer keys are distinct (no two students may share either).

use std::collections::HashSet;
use std::io::Write;
use std::time::Instant;

use crate::app::bench_harness::cpu_now;
use crate::cli::{exit, BenchArgs, ColorChoice, ExerciseGradeArgs, ExerciseMakeArgs};
use crate::exercise::{file, variant, Kind, Variant};
use crate::harness::grade::for_each_parallel;

/// What a synthetic student answers: everything right, a wrong method wherever one differs, half the parts
/// left blank, or one unreadable answer.
fn answers(i: usize, id: &str, variants: &[Variant]) -> String {
    file::answered(id, variants, |_, part| match i % 4 {
        0 => Some(part.expected.show()),
        1 => Some(part.wrong.first().map_or_else(|| part.expected.show(), |(_, a)| a.show())),
        2 => (part.spec.points > 2).then(|| part.expected.show()),
        _ => Some(if part.spec.key == "value" { "about five".into() } else { part.expected.show() }),
    })
}

/// Runs the benchmark; returns the exit code.
pub fn run(args: &BenchArgs, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    let fail = |err: &mut dyn Write, e: String| {
        let _ = writeln!(err, "referee bench exercise: {e}");
        exit::INTERNAL
    };
    let n = args.students.max(1);
    let jobs = args.jobs.max(1);
    let ids: Vec<String> = (1..=n).map(|i| format!("s{i:04}")).collect();
    let tmp = match tempfile::Builder::new().prefix("referee-bench-exercise-").tempdir() {
        Ok(t) => t,
        Err(e) => return fail(err, e.to_string()),
    };
    let roster = tmp.path().join("roster.txt");
    if let Err(e) = std::fs::write(&roster, ids.join("\n")) {
        return fail(err, e.to_string());
    }
    let seed = 2024;
    let make = ExerciseMakeArgs {
        kind: Kind::ALL.to_vec(),
        ids: roster.display().to_string(),
        id_column: None,
        seed,
        out: tmp.path().join("made"),
        jobs: Some(jobs),
    };
    let (started, cpu) = (Instant::now(), cpu_now());
    let code = super::make::run(&make, &mut Vec::new(), err);
    let (made, made_cpu) = (started.elapsed().as_secs_f64(), (cpu_now() - cpu).as_secs_f64());
    if code != exit::SUCCESS {
        return fail(err, format!("exercise make ended with {code}"));
    }

    let mut all: Vec<Option<Vec<Variant>>> = vec![None; n];
    for_each_parallel(&ids, jobs, |id| Kind::ALL.map(|k| variant(seed, id, k)).to_vec(), |i, v| all[i] = Some(v));
    let class = tmp.path().join("class");
    if let Err(e) = std::fs::create_dir_all(&class) {
        return fail(err, e.to_string());
    }
    let mut distinct: Vec<(HashSet<String>, HashSet<String>)> = vec![(HashSet::new(), HashSet::new()); Kind::ALL.len()];
    for (i, (id, variants)) in ids.iter().zip(&all).enumerate() {
        let Some(variants) = variants else { return fail(err, format!("invariant: {id} has no variants")) };
        for (k, v) in variants.iter().enumerate() {
            distinct[k].0.insert(v.code.clone());
            let key: Vec<String> = v.parts.iter().map(|p| p.expected.show()).collect();
            distinct[k].1.insert(key.join("\n"));
        }
        if let Err(e) = std::fs::write(class.join(format!("{id}.txt")), answers(i, id, variants)) {
            return fail(err, e.to_string());
        }
    }

    let grade = ExerciseGradeArgs {
        seed,
        kind: Kind::ALL.to_vec(),
        points: None,
        dir: None,
        id: None,
        ids: None,
        id_column: None,
        submissions: Some(class),
        out: Some(tmp.path().join("results")),
        fresh: true,
        shard: None,
        jobs: Some(jobs),
        format: None,
        color: ColorChoice::Never,
    };
    let (started, cpu) = (Instant::now(), cpu_now());
    let code = super::grade::run_quietly(&grade, &mut Vec::new(), &mut Vec::new());
    let (graded, graded_cpu) = (started.elapsed().as_secs_f64(), (cpu_now() - cpu).as_secs_f64());
    if code > exit::FAILED {
        return fail(err, format!("exercise grade ended with {code}"));
    }
    let _ = writeln!(out, "exercise: {n} students x {} problems, -j {jobs}", Kind::ALL.len());
    let _ = writeln!(
        out,
        "  make  (sheet.md + sheet.html + answers.txt each, key.md + key.csv): {made:.2} s, {made_cpu:.2} s CPU \
         (target < 10 s)"
    );
    let _ = writeln!(
        out,
        "  grade (answer files -> results, feedback, gradebook, report.html):  {graded:.2} s, {graded_cpu:.2} s \
         CPU (target < 5 s)"
    );
    let _ = writeln!(out, "  (on a busy machine the wall times wait for a core; the CPU times barely move)");
    for (k, (codes, keys)) in Kind::ALL.iter().zip(&distinct) {
        let _ = writeln!(
            out,
            "  {:<10} distinct variants {}/{n}, distinct answer keys {}/{n}",
            k.name(),
            codes.len(),
            keys.len()
        );
    }
    exit::SUCCESS
}
