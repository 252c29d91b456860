//! `referee grade --format classroom50`: the submission's identity from the flags or the Classroom 50 runner's
//! environment, the `result.json` on stdout, the optional release body, and the exit code the runner reads
//! (nonzero only for a fault of the grader's own; a failing student is a score, not an error).

use std::io::Write;

use crate::cli::{exit, Classroom50Args};
use crate::harness::model::SubmissionResult;
use crate::harness::render::classroom50::{render_submission, Identity};
use crate::harness::render::view::StudentView;
use crate::harness::render::{markdown, RenderOptions};

/// The identity of the submission graded: each field from its flag, else the environment variable the runner
/// sets (read through `env`).
///
/// # Errors
/// A one-line message naming the flag and the variable of the first required field that has neither, or a value
/// of the wrong form.
pub fn identity(args: &Classroom50Args, env: &dyn Fn(&str) -> Option<String>) -> Result<Identity, String> {
    let pick = |flag: &Option<String>, vars: &[&str]| -> Option<String> {
        flag.clone()
            .filter(|v| !v.trim().is_empty())
            .or_else(|| vars.iter().find_map(|v| env(v).filter(|value| !value.trim().is_empty())))
    };
    let need = |flag: &Option<String>, name: &str, vars: &[&str]| {
        pick(flag, vars).ok_or_else(|| {
            format!("--format classroom50 needs --{name} (or ${} from the Classroom 50 runner)", vars.join(" or $"))
        })
    };
    let classroom = need(&args.classroom, "classroom", &["CLASSROOM"])?;
    let assignment = need(&args.assignment, "assignment", &["ASSIGNMENT"])?;
    let owner = need(&args.owner, "owner", &["OWNER", "USERNAME"])?;
    let submission = need(&args.submission_tag, "submission-tag", &["SUBMISSION_TAG"])?;
    if !submission.starts_with("submit/") {
        return Err(format!("--submission-tag: '{submission}' is not a submit/... tag"));
    }
    let given = pick(&args.assignment_type, &["ASSIGNMENT_TYPE"]).unwrap_or_else(|| "individual".to_string());
    let assignment_type = assignment_type(&given)
        .ok_or_else(|| format!("--assignment-type: '{given}' is none of individual, group or team"))?
        .to_string();
    let from_github = || {
        let (server, repo, sha) = (env("GITHUB_SERVER_URL")?, env("GITHUB_REPOSITORY")?, env("GITHUB_SHA")?);
        Some(format!("{server}/{repo}/commit/{sha}"))
    };
    let commit = pick(&args.commit_url, &["COMMIT_URL"]).or_else(from_github).ok_or(
        "--format classroom50 needs --commit-url (or $COMMIT_URL, or $GITHUB_SERVER_URL, $GITHUB_REPOSITORY and \
         $GITHUB_SHA)",
    )?;
    let release = pick(&args.release_url, &["RELEASE_URL"]).unwrap_or_else(|| commit.clone());
    let review = pick(&args.review_url, &["REVIEW_URL"]).unwrap_or_else(|| commit.clone());
    let datetime = match &args.submitted_at {
        Some(at) => {
            let parsed = humantime::parse_rfc3339(at)
                .map_err(|_| format!("--submitted-at: '{at}' is not a time like 2026-09-01T10:00:00Z"))?;
            humantime::format_rfc3339_seconds(parsed).to_string()
        }
        None => humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string(),
    };
    Ok(Identity { classroom, assignment, assignment_type, owner, submission, commit, release, review, datetime })
}

/// The `assignment_type` result.json states for what the runner or the TA gave: Classroom 50's runner passes
/// `team` for a team assignment, which its published result schema calls `group`.
fn assignment_type(given: &str) -> Option<&'static str> {
    match given.trim().to_ascii_lowercase().as_str() {
        "individual" => Some("individual"),
        "group" | "team" => Some("group"),
        _ => None,
    }
}

/// Writes `result`'s `result.json` to `out` (and the release body when asked) and returns the exit code the
/// runner reads: `graded` (grade's own code) with a failing student turned into success. A hand-in without a
/// score gets no `result.json` and a nonzero code.
pub fn finish(
    result: &SubmissionResult,
    identity: &Identity,
    args: &Classroom50Args,
    graded: u8,
    view: StudentView,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> u8 {
    let options = RenderOptions { view, ..RenderOptions::default() };
    if let Some(line) = result.outcome().reason_line() {
        // Classroom 50 records any result.json as a grade: a hand-in without a score gets none, and the runner
        // records the nonzero exit as an error.
        let _ = writeln!(err, "referee grade: no result.json: {line}");
        return if graded == exit::SUCCESS { exit::FAILED } else { graded };
    }
    if let Err(e) = render_submission(result, identity, &options, out).and_then(|_| out.flush()) {
        let _ = writeln!(err, "referee grade: cannot write result.json: {e}");
        return exit::INTERNAL;
    }
    if let Some(path) = &args.release_body {
        let mut body = Vec::new();
        let written =
            markdown::render_submission(result, &options, &mut body).and_then(|_| std::fs::write(path, &body));
        if let Err(e) = written {
            let _ = writeln!(err, "referee grade: --release-body {}: {e}", path.display());
            return exit::INTERNAL;
        }
    }
    if graded == exit::FAILED {
        exit::SUCCESS
    } else {
        graded
    }
}

#[cfg(test)]
mod tests {
    // Invariant: every unwrap/expect/panic in this module is a test assertion on inputs the test itself fixes,
    // never on user input; a failure is the test failing.
    use super::*;

    fn runner_env(name: &str) -> Option<String> {
        let value = match name {
            "CLASSROOM" => "cs540",
            "ASSIGNMENT" => "takestones",
            "USERNAME" => "alice",
            "SUBMISSION_TAG" => "submit/2026-09-01T10-00-00Z-abc1234",
            "GITHUB_SERVER_URL" => "https://github.com",
            "GITHUB_REPOSITORY" => "cs540/cs540-takestones-alice",
            "GITHUB_SHA" => "abc1234",
            _ => return None,
        };
        Some(value.to_string())
    }

    #[test]
    fn the_runners_environment_fills_every_field() {
        let id = identity(&Classroom50Args::default(), &runner_env).unwrap();
        assert_eq!((id.owner.as_str(), id.assignment_type.as_str()), ("alice", "individual"));
        assert_eq!(id.commit, "https://github.com/cs540/cs540-takestones-alice/commit/abc1234");
        assert_eq!(id.review, id.commit);
        assert!(id.datetime.ends_with('Z') && id.datetime.len() == 20, "{}", id.datetime);
    }

    #[test]
    fn flags_win_and_a_missing_field_names_flag_and_variable() {
        let args = Classroom50Args {
            owner: Some("bob".into()),
            submitted_at: Some("2026-09-01T10:00:00.5Z".into()),
            ..Classroom50Args::default()
        };
        let id = identity(&args, &runner_env).unwrap();
        assert_eq!((id.owner.as_str(), id.datetime.as_str()), ("bob", "2026-09-01T10:00:00Z"));
        let err = identity(&Classroom50Args::default(), &|_| None).unwrap_err();
        assert!(err.contains("--classroom") && err.contains("$CLASSROOM"), "{err}");
        let bad = Classroom50Args { submission_tag: Some("v1".into()), ..Classroom50Args::default() };
        assert!(identity(&bad, &runner_env).unwrap_err().contains("submit/"));
    }
}
