//! Why an agent cannot play, in a module of its own so the hosts that prepare agents ([`super::java_host`],
//! [`super::python_host`]) and [`super::spec`], which calls them, import it without importing each other.

/// Why an agent cannot play.
#[derive(Debug, thiserror::Error)]
pub enum PrepareError {
    /// The student's code does not compile or cannot be found: the student's fault.
    #[error("{0}")]
    Build(String),
    /// The referee could not set it up (a missing JDK, an unwritable folder): never the student's fault.
    #[error("{0}")]
    Setup(String),
}

impl From<crate::harness::grade::workspace::WorkspaceError> for PrepareError {
    /// Laying out a hand-in: a broken or oversized archive is the student's; a hand-in the grader cannot read (a
    /// link into nowhere, a pipe, a folder it may not open) or a scratch folder it cannot write is the grader's.
    fn from(e: crate::harness::grade::workspace::WorkspaceError) -> Self {
        if e.is_graders() {
            PrepareError::Setup(e.explained())
        } else {
            PrepareError::Build(e.to_string())
        }
    }
}
