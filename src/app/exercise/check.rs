//! `referee exercise check`: a student's pre-submission check of an answer file's form. It knows the kinds but
//! not the seed, so it cannot know, and never says, whether an answer is right: only that every part is there
//! once and reads as the form it asks for. It reads the file as `exercise grade` does (the same decoding, the same
//! file reader, the same answer parser) and prints, for every readable part, the answer as grading reads it.

use std::io::Write;

use super::kinds;
use crate::cli::{exit, ExerciseCheckArgs};
use crate::exercise::answer::parse;
use crate::exercise::file;
use crate::exercise::handin::MAX_BYTES;

/// Runs `referee exercise check`; returns the exit code.
pub fn run(args: &ExerciseCheckArgs, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    let path = &args.answers;
    let name = path.display().to_string();
    let text = match std::fs::metadata(path).and_then(|m| {
        if m.len() > MAX_BYTES {
            Err(std::io::Error::other("larger than 1 MiB; an answer file is a few lines of text"))
        } else {
            std::fs::read(path)
        }
    }) {
        Ok(bytes) => file::decode(&bytes),
        Err(e) => {
            let _ = writeln!(err, "referee exercise check: {name}: {e}");
            return exit::USAGE;
        }
    };
    let shown = path.file_name().map_or(name.clone(), |n| n.to_string_lossy().into_owned());
    let answers = file::parse(&shown, &text);
    let mut problems: Vec<String> = answers.problems.clone();
    let mut readings: Vec<String> = Vec::new();
    let mut ready = 0;
    let mut total = 0;
    for kind in kinds(&args.kind) {
        let Some(section) = answers.section(kind) else {
            total += kind.parts().len();
            problems.push(format!("[{}] is missing (copy the section from the template)", kind.name()));
            continue;
        };
        if section.variant.is_none() {
            problems.push(format!(
                "[{}] has no 'variant =' line: put back the one from your template, so your answers are graded \
                 against your own sheet",
                kind.name()
            ));
        }
        for (key, at) in &section.unknown {
            problems.push(format!("{at}: [{}] asks no '{key}'", kind.name()));
        }
        for spec in kind.parts() {
            total += 1;
            let given = section.answers(spec.key);
            let what = format!("[{}] {}", kind.name(), spec.key);
            match given.as_slice() {
                [] => problems.push(format!("{what}: missing (add a '{} =' line)", spec.key)),
                [one] if one.value.trim().is_empty() => problems.push(format!("{what} ({}): blank", one.at)),
                [one] => match parse(spec.form, &one.value) {
                    Ok(answer) => {
                        ready += 1;
                        readings.push(format!("{what} ({}): reads as {}", one.at, answer.show()));
                    }
                    Err(why) => problems.push(format!(
                        "{what} ({}): cannot be read: {why}; write {}",
                        one.at,
                        spec.form.example()
                    )),
                },
                several => {
                    let places: Vec<&str> = several.iter().map(|e| e.at.as_str()).collect();
                    problems.push(format!(
                        "{what}: answered {} times ({}); keep one",
                        several.len(),
                        places.join(", ")
                    ));
                }
            }
        }
    }
    for line in readings.iter().chain(&problems) {
        let _ = writeln!(out, "{line}");
    }
    let _ = writeln!(
        out,
        "{ready} of {total} parts present and readable{}",
        if problems.is_empty() {
            "; the form is ready to hand in (whether the answers are right is not checked)"
        } else {
            ""
        }
    );
    if problems.is_empty() {
        exit::SUCCESS
    } else {
        exit::FAILED
    }
}
