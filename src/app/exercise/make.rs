//! `referee exercise make`: for each student of a roster, their variants of the asked problems, written as a
//! Markdown sheet, an HTML sheet and an answer template in `OUT/students/<id>/`; and the class key
//! (`OUT/key.md`, `OUT/key.csv`). Students are made in parallel; the key keeps the roster's order.

use std::collections::HashMap;
use std::io::Write;
use std::path::Path;
use std::time::Instant;

use super::kinds;
use crate::cli::{exit, ExerciseMakeArgs};
use crate::exercise::sheet::{html, markdown, Student};
use crate::exercise::{file, key, roster, variant, Variant};
use crate::harness::grade::class::{safe_name, write_atomic};
use crate::harness::grade::for_each_parallel;

/// What one student's making left for the key, or the file that could not be written.
type Made = Result<(String, String, Vec<String>), String>;

/// Runs `referee exercise make`; returns the exit code.
pub fn run(args: &ExerciseMakeArgs, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    let started = Instant::now();
    let fail = |err: &mut dyn Write, code: u8, message: &str| {
        let _ = writeln!(err, "referee exercise make: {message}");
        code
    };
    let ids = match roster::read(&args.ids, args.id_column.as_deref()) {
        Ok(ids) => ids,
        Err(e) => return fail(err, exit::USAGE, &e),
    };
    let kinds = kinds(&args.kind);
    let students = args.out.join("students");
    if let Err(e) = std::fs::create_dir_all(&students) {
        return fail(err, exit::INTERNAL, &format!("{}: {e}", students.display()));
    }
    let mut made: Vec<Option<Made>> = vec![None; ids.len()];
    for_each_parallel(
        &ids,
        crate::app::jobs_or_cores(args.jobs),
        |id| {
            let variants: Vec<Variant> = kinds.iter().map(|&k| variant(args.seed, id, k)).collect();
            write_student(&students, id, &variants)?;
            Ok((
                key::student(id, &variants),
                key::csv_rows(id, &variants),
                variants.into_iter().map(|v| v.code).collect(),
            ))
        },
        |i, result| made[i] = Some(result),
    );
    let names: Vec<&str> = kinds.iter().map(|k| k.name()).collect();
    let mut key_md = key::header(ids.len(), &names, args.seed);
    let mut key_csv = key::CSV_HEADER.to_string();
    let mut codes: Vec<HashMap<String, &str>> = vec![HashMap::new(); kinds.len()];
    let mut shared = Vec::new();
    for (id, result) in ids.iter().zip(made) {
        let (md, csv, variant_codes) = match result {
            Some(Ok(made)) => made,
            Some(Err(e)) => return fail(err, exit::INTERNAL, &e),
            None => return fail(err, exit::INTERNAL, &format!("invariant: {id} was not made")),
        };
        key_md.push_str(&md);
        key_csv.push_str(&csv);
        for (k, code) in variant_codes.into_iter().enumerate() {
            if let Some(other) = codes[k].insert(code.clone(), id) {
                shared.push(format!("{other} and {id} share the {} variant {code}", names[k]));
            }
        }
    }
    for (name, text) in [("key.md", key_md), ("key.csv", key_csv)] {
        let path = args.out.join(name);
        if let Err(e) = write_atomic(&path, text.as_bytes()) {
            return fail(err, exit::INTERNAL, &format!("{}: {e}", path.display()));
        }
    }
    for line in &shared {
        let _ = writeln!(err, "referee exercise make: warning: {line}; a different --seed gives them different ones");
    }
    let _ = writeln!(
        out,
        "made {} problem(s) ({}) for {} student(s) with seed {} in {:.1} s: {}/students/<id>/sheet.md, sheet.html, \
         answers.txt; the key is {}/key.md and key.csv",
        kinds.len(),
        names.join(", "),
        ids.len(),
        args.seed,
        started.elapsed().as_secs_f64(),
        args.out.display(),
        args.out.display()
    );
    exit::SUCCESS
}

/// Writes the sheet (Markdown and HTML) and the answer template of `id`.
fn write_student(students: &Path, id: &str, variants: &[Variant]) -> Result<(), String> {
    let dir = students.join(safe_name(id));
    let student = Student { id, variants };
    for (name, text) in [
        ("sheet.md", markdown::render(&student)),
        ("sheet.html", html::render(&student)),
        ("answers.txt", file::template(id, variants)),
    ] {
        let path = dir.join(name);
        write_atomic(&path, text.as_bytes()).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(())
}
