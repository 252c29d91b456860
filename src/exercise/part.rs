//! The parts a sheet asks: [`PartSpec`] is what every variant of a kind shares (the key in the answer file, the
//! title, how it is written, its points); [`Part`] adds what one variant asks and answers.

use super::answer::{Answer, Form, Vocabulary};
use super::misconception::Misconception;

/// What every variant of a kind asks in this part.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PartSpec {
    /// The key in the answer file (`pruned`).
    pub key: &'static str,
    /// A few words for reports (`nodes never visited`).
    pub title: &'static str,
    /// How the answer is written.
    pub form: Form,
    /// Points, out of [`super::grade::PROBLEM_POINTS`] for the problem (whole: a part's share is exact).
    pub points: u32,
}

/// One part of one variant.
#[derive(Clone, Debug)]
pub struct Part {
    /// The shared description.
    pub spec: PartSpec,
    /// The question, naming this variant's nodes, states or variables.
    pub prompt: String,
    /// The labels the answer may use, and what they are called in messages (`a node of the tree`).
    pub vocabulary: Vocabulary,
    /// What a label is, for messages.
    pub what: &'static str,
    /// The right answer.
    pub expected: Answer,
    /// What each known wrong method answers here (only the ones that differ from the right answer).
    pub wrong: Vec<(Misconception, Answer)>,
}

impl Part {
    /// A part with no wrong answers yet.
    pub fn new(spec: PartSpec, prompt: String, vocabulary: Vocabulary, what: &'static str, expected: Answer) -> Part {
        Part { spec, prompt, vocabulary, what, expected, wrong: Vec::new() }
    }

    /// Adds what `method` answers, when it differs from the right answer.
    pub fn wrong(mut self, method: Misconception, answer: Option<Answer>) -> Part {
        if let Some(answer) = answer.filter(|a| *a != self.expected) {
            self.wrong.push((method, answer));
        }
        self
    }
}
