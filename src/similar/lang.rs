//! The languages `similar` compares, and which files belong to each.

use std::path::Path;

/// A source language with a tokenizer of its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Lang {
    /// `.java` files.
    Java,
    /// `.py` files.
    Python,
}

impl Lang {
    /// The language a file's name says, if any (by extension, case-insensitive).
    pub fn of(path: &str) -> Option<Lang> {
        let ext = Path::new(path).extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "java" => Some(Lang::Java),
            "py" => Some(Lang::Python),
            _ => None,
        }
    }

    /// The name used on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Lang::Java => "java",
            Lang::Python => "python",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extensions_decide() {
        assert_eq!(Lang::of("a/B.java"), Some(Lang::Java));
        assert_eq!(Lang::of("x.PY"), Some(Lang::Python));
        assert_eq!(Lang::of("x.pyc"), None);
        assert_eq!(Lang::of("java"), None);
    }
}
