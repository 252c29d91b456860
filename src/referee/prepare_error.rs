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
