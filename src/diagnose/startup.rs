//! A program that failed before it printed anything: the line of its stderr that says why (the exception, `can't
//! open file`, `command not found` ...) and what to try, for `referee check` to say at once instead of shrinking a
//! crash.

/// The most of a telling line shown.
const MAX_CHARS: usize = 200;

/// The line of `stderr` that says what went wrong, shortened: the root exception of a Java stack trace
/// (`ClassNotFoundException: TakeStones`, without its package), the exception line of a Python traceback
/// (`ZeroDivisionError: division by zero`), a line about a missing file or command, or else the last line.
/// `None` for an empty stderr.
pub fn telling_line(stderr: &str) -> Option<String> {
    let lines: Vec<&str> = stderr.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    let exceptions: Vec<String> = lines.iter().filter_map(|l| exception(l)).collect();
    // Java's `Caused by:` is the root cause; otherwise the last exception (Python prints it last).
    let caused = lines.iter().rev().find_map(|l| l.strip_prefix("Caused by: ").and_then(exception));
    let missing = ["can't open file", "No such file or directory", "command not found", "not found", "cannot find"];
    let chosen = caused
        .or_else(|| exceptions.last().cloned())
        .or_else(|| lines.iter().find(|l| missing.iter().any(|m| l.contains(m))).map(|l| l.to_string()))
        .or_else(|| lines.last().map(|l| l.to_string()))?;
    Some(shorten(&chosen))
}

/// `Name: message` when `line` reports an exception or error (`java.lang.ArithmeticException: / by zero`,
/// `Exception in thread "main" ...`, `ValueError: ...`), its name without the package.
fn exception(line: &str) -> Option<String> {
    let line = match line.strip_prefix("Exception in thread ") {
        Some(rest) => rest.split_once("\" ").map_or(rest, |(_, after)| after),
        None => line,
    };
    let (name, message) = match line.split_once(':') {
        Some((name, message)) => (name, Some(message.trim())),
        None => (line, None),
    };
    let short = name.rsplit('.').next().unwrap_or(name);
    let is_exception = !name.contains(' ')
        && short.starts_with(|c: char| c.is_ascii_uppercase())
        && (short.ends_with("Exception") || short.ends_with("Error"));
    if !is_exception {
        return None;
    }
    Some(match message.filter(|m| !m.is_empty()) {
        Some(m) => format!("{short}: {m}"),
        None => short.to_string(),
    })
}

fn shorten(line: &str) -> String {
    if line.chars().count() <= MAX_CHARS {
        return line.to_string();
    }
    let cut: String = line.chars().take(MAX_CHARS).collect();
    format!("{cut}...")
}

/// What to try, from what `stderr` says: compile (a Java class not found), check the file name (listing
/// `files`, the program's folder), install the program, or `None` when stderr says nothing this knows.
/// `built` says whether a build step ran first.
pub fn hint(stderr: &str, built: bool, files: &[String]) -> Option<String> {
    if stderr.contains("ClassNotFoundException") || stderr.contains("Could not find or load main class") {
        return Some(if built {
            "the build ran but the class is not there: check the class name in --cmd and that the build writes \
             its classes into {dir} (javac -d {dir})"
                .into()
        } else {
            "did you compile? try --build 'javac -d {dir} {dir}/*.java' (with --shell for the *)".into()
        });
    }
    if stderr.contains("can't open file") || stderr.contains("No such file or directory") {
        let listing = if files.is_empty() {
            "the folder is empty".to_string()
        } else {
            let mut shown: Vec<&str> = files.iter().take(8).map(String::as_str).collect();
            if files.len() > 8 {
                shown.push("...");
            }
            format!("the folder holds {}", shown.join(", "))
        };
        return Some(format!("check the file name in --cmd and --dir ({listing})"));
    }
    if stderr.contains("command not found") || stderr.contains("not found") {
        return Some("check the program's name in --cmd: is it installed and on your PATH?".into());
    }
    if stderr.contains("SyntaxError") || stderr.contains("IndentationError") {
        return Some("Python could not read your program: fix the line it names".into());
    }
    None
}

#[cfg(test)]
mod tests {
    // Invariant: every unwrap/expect/panic in this module is a test assertion on inputs the test itself fixes,
    // never on user input; a failure is the test failing.
    use super::*;

    #[test]
    fn the_telling_line_of_common_failures() {
        let java = "Error: Could not find or load main class TakeStones\n\
                    Caused by: java.lang.ClassNotFoundException: TakeStones\n";
        assert_eq!(telling_line(java).as_deref(), Some("ClassNotFoundException: TakeStones"));
        let thrown = "Exception in thread \"main\" java.lang.ArithmeticException: / by zero\n\
                      \tat TakeStones.main(TakeStones.java:12)\n";
        assert_eq!(telling_line(thrown).as_deref(), Some("ArithmeticException: / by zero"));
        let python = "Traceback (most recent call last):\n  File \"t.py\", line 3, in <module>\n    1/0\n\
                      ZeroDivisionError: division by zero\n";
        assert_eq!(telling_line(python).as_deref(), Some("ZeroDivisionError: division by zero"));
        let missing = "/usr/bin/python3: can't open file '/h/takestone.py': [Errno 2] No such file or directory\n";
        assert_eq!(telling_line(missing).as_deref(), Some(missing.trim()));
        assert_eq!(telling_line("sh: 1: javaa: not found\n").as_deref(), Some("sh: 1: javaa: not found"));
        assert_eq!(telling_line("something\nelse went wrong\n").as_deref(), Some("else went wrong"));
        assert_eq!(telling_line(" \n"), None);
        assert!(telling_line(&"x".repeat(500)).unwrap().ends_with("..."));
    }

    #[test]
    fn hints_follow_the_failure() {
        let java = "Caused by: java.lang.ClassNotFoundException: TakeStones";
        assert!(hint(java, false, &[]).unwrap().starts_with("did you compile? try --build"));
        assert!(hint(java, true, &[]).unwrap().contains("the build ran"));
        let files = vec!["takestones.py".to_string()];
        let h = hint("python3: can't open file 'x.py'", false, &files).unwrap();
        assert!(h.contains("the folder holds takestones.py"), "{h}");
        assert!(hint("bash: javaa: command not found", false, &[]).unwrap().contains("PATH"));
        assert_eq!(hint("ZeroDivisionError: division by zero", false, &[]), None);
    }
}
