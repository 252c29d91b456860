//! Command templates: `java -cp {dir} TakeStones {args}`, split like a shell would split them, run without one.

use std::ffi::OsString;
use std::path::Path;

/// A parsed command template. `{dir}` is the submission's folder; `{args}` standing alone as a word becomes the
/// case's arguments, one word each (inside a longer word they are joined with spaces).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Template {
    text: String,
    words: Vec<String>,
    shell: bool,
}

/// A template that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TemplateError {
    /// Nothing to run.
    #[error("the command template is empty")]
    Empty,
    /// Unbalanced quotes.
    #[error("the command template '{0}' has an unclosed quote")]
    Quote(String),
}

impl Template {
    /// Parses `text`. With `shell`, the expanded text is run by `sh -c` (values shell-quoted).
    ///
    /// # Errors
    /// An empty template or unbalanced quotes.
    pub fn parse(text: &str, shell: bool) -> Result<Template, TemplateError> {
        let words = shlex::split(text).ok_or_else(|| TemplateError::Quote(text.to_string()))?;
        if words.is_empty() {
            return Err(TemplateError::Empty);
        }
        Ok(Template { text: text.to_string(), words, shell })
    }

    /// The template as written.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The program and arguments for a submission in `dir` and a case's `args`.
    pub fn expand(&self, dir: &Path, args: &[String]) -> (OsString, Vec<OsString>) {
        let dir_text = dir.to_string_lossy();
        if self.shell {
            let quote = |s: &str| shlex::try_quote(s).map(|q| q.into_owned()).unwrap_or_else(|_| s.replace('\0', ""));
            let joined = args.iter().map(|a| quote(a)).collect::<Vec<_>>().join(" ");
            let script = self.text.replace("{dir}", &quote(&dir_text)).replace("{args}", &joined);
            return ("sh".into(), vec!["-c".into(), script.into()]);
        }
        let mut out: Vec<OsString> = Vec::new();
        for word in &self.words {
            if word == "{args}" {
                out.extend(args.iter().map(OsString::from));
            } else {
                out.push(word.replace("{dir}", &dir_text).replace("{args}", &args.join(" ")).into());
            }
        }
        let program = out.remove(0);
        (program, out)
    }
}

#[cfg(test)]
mod tests {
    // Invariant: every unwrap/expect/panic in this module is a test assertion on inputs the test itself fixes,
    // never on user input; a failure is the test failing.
    use super::*;

    #[test]
    fn expands_without_a_shell() {
        let t = Template::parse("java -cp {dir} TakeStones {args}", false).unwrap();
        let (program, args) = t.expand(Path::new("/s/alice"), &["7".into(), "0".into(), "3".into()]);
        assert_eq!(program, "java");
        assert_eq!(args, ["-cp", "/s/alice", "TakeStones", "7", "0", "3"]);
        let t = Template::parse("python3 '{dir}/my prog.py' {args}", false).unwrap();
        assert_eq!(t.expand(Path::new("/d"), &[]).1, ["/d/my prog.py"]);
    }

    #[test]
    fn shell_mode_quotes_values() {
        let t = Template::parse("cd {dir} && ./run {args}", true).unwrap();
        let (program, args) = t.expand(Path::new("/a b"), &["x y".into()]);
        assert_eq!(program, "sh");
        assert_eq!(args[1], "cd '/a b' && ./run 'x y'");
    }

    #[test]
    fn rejects_bad_templates() {
        assert_eq!(Template::parse("  ", false), Err(TemplateError::Empty));
        assert!(matches!(Template::parse("java 'oops", false), Err(TemplateError::Quote(_))));
    }
}
