//! A constraint problem: variables with finite integer domains, unary and binary constraints, and an optional
//! partial assignment.

use super::expr::Relation;

/// A variable and its declared domain (in the order written, which is also the order values are tried in).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variable {
    /// The name.
    pub name: String,
    /// The declared values.
    pub domain: Vec<i64>,
}

/// A constraint on one or two variables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Constraint {
    /// The constraint as written (spaces normalised), for messages and tables.
    pub text: String,
    /// The variables in slot order (indices into [`Problem::variables`]); one or two.
    pub scope: Vec<usize>,
    /// The relation over the slots.
    pub relation: Relation,
}

impl Constraint {
    /// The other variable of a binary constraint on `var`, if `var` is in its scope.
    pub fn other(&self, var: usize) -> Option<usize> {
        match self.scope[..] {
            [a, b] if a == var => Some(b),
            [a, b] if b == var => Some(a),
            _ => None,
        }
    }

    /// Whether `var = value` together with `other = other_value` satisfies this binary constraint.
    pub fn allows(&self, var: usize, value: i64, other: usize, other_value: i64) -> bool {
        let slot = |v: usize| {
            if v == var {
                value
            } else if v == other {
                other_value
            } else {
                0
            }
        };
        let values: Vec<i64> = self.scope.iter().map(|&v| slot(v)).collect();
        self.relation.holds(&values)
    }

    /// Whether a full assignment (`values[var]`) satisfies this constraint.
    pub fn satisfied_by(&self, values: &[i64]) -> bool {
        let mine: Vec<i64> = self.scope.iter().map(|&v| values[v]).collect();
        self.relation.holds(&mine)
    }
}

/// Variables, constraints and the partial assignment to start from (in the order given).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Problem {
    /// Variables in the order declared (ties between heuristics are broken in this order).
    pub variables: Vec<Variable>,
    /// Constraints in file order.
    pub constraints: Vec<Constraint>,
    /// `(variable, value)` pairs, each value in the variable's declared domain.
    pub assignment: Vec<(usize, i64)>,
}

impl Problem {
    /// The index of the variable called `name`.
    pub fn index(&self, name: &str) -> Option<usize> {
        self.variables.iter().position(|v| v.name == name)
    }

    /// `C = 1, G = 0` for these pairs.
    pub fn describe(&self, pairs: &[(usize, i64)]) -> String {
        let parts: Vec<String> = pairs.iter().map(|&(v, x)| format!("{} = {x}", self.variables[v].name)).collect();
        parts.join(", ")
    }

    /// Replaces the partial assignment by `A=1,B=2` (spaces allowed; empty text means no assignment).
    ///
    /// # Errors
    /// One line naming the pair that is wrong and why.
    pub fn set_assignment(&mut self, text: &str) -> Result<(), String> {
        let mut pairs = Vec::new();
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let Some((name, value)) = part.split_once('=') else {
                return Err(format!("'{part}' is not NAME=VALUE"));
            };
            let (name, value) = (name.trim(), value.trim());
            let var = self.index(name).ok_or_else(|| format!("'{part}': there is no variable {name}"))?;
            let value: i64 = value.parse().map_err(|_| format!("'{part}': '{value}' is not an integer"))?;
            if !self.variables[var].domain.contains(&value) {
                return Err(format!("'{part}': {value} is not in the domain of {name}"));
            }
            if pairs.iter().any(|&(v, _)| v == var) {
                return Err(format!("'{part}': {name} is assigned twice"));
            }
            pairs.push((var, value));
        }
        self.assignment = pairs;
        Ok(())
    }
}
