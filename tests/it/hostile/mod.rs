//! The hostile-class generator of [`crate::hostile_class`]: the grammar and how a class is laid out on disk.

pub mod grammar;
pub mod layout;
