//! Suites: named cases, each the arguments of one run and the output it must print.
//!
//! [`course`] reads the course's `testcase.txt` layouts unchanged; [`builtin`] holds the official files.

pub mod builtin;
pub mod course;

/// One test case: the student program's arguments and the expected standard output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case {
    /// A short name (`output2.txt`, say).
    pub name: String,
    /// The program's arguments, without the program (`["7", "1", "1", "2"]`).
    pub args: Vec<String>,
    /// The output the program must print.
    pub expected: String,
}
