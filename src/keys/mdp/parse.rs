//! The MDP input format (TOML). States and actions keep file order, which is the order ties are broken in.
//!
//! ```toml
//! discount = 0.8                     # 0 <= discount <= 1; also "9/10"
//!
//! [states.cool]                      # a state; each key is an action with its outcomes
//! slow = [{ to = "cool", p = 1, reward = 2 }]
//! fast = [{ to = "cool", p = 0.25, reward = 4 }, { to = "warm", p = "3/4", reward = 4 }]
//!
//! [states.done]                      # no actions: a terminal state (value 0)
//!
//! [policy]                           # optional: the policy to evaluate and to start policy iteration from
//! cool = "slow"
//! ```
//!
//! Numbers are integers, decimals (read exactly: 0.1 is 1/10) or strings holding a fraction. `reward` defaults to
//! 0. The probabilities of an action's outcomes must sum to exactly 1.

use std::fmt;
use std::marker::PhantomData;

use num_traits::{One, Signed, Zero};
use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};
use toml::Spanned;

use super::model::{Action, Mdp, Outcome, State};
use crate::keys::number::{self, Q};
use crate::keys::source::SourceError;

/// A TOML table read in file order.
struct Ordered<T>(Vec<(Spanned<String>, T)>);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Ordered<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Entries<T>(PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for Entries<T> {
            type Value = Ordered<T>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a table")
            }
            fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<Ordered<T>, M::Error> {
                let mut out = Vec::new();
                while let Some(key) = map.next_key::<Spanned<String>>()? {
                    out.push((key, map.next_value()?));
                }
                Ok(Ordered(out))
            }
        }
        d.deserialize_map(Entries(PhantomData))
    }
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMdp {
    discount: Spanned<toml::Value>,
    states: Ordered<Ordered<Spanned<Vec<Spanned<RawOutcome>>>>>,
    policy: Option<Ordered<Spanned<String>>>,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct RawOutcome {
    to: Spanned<String>,
    p: Spanned<toml::Value>,
    reward: Option<Spanned<toml::Value>>,
}

/// Parses an MDP file.
///
/// # Errors
/// The first mistake, at its line and column.
pub fn parse(text: &str) -> Result<Mdp, SourceError> {
    let err = |at: usize, msg: String| SourceError::at(text, at, msg);
    let raw: RawMdp = toml::from_str(text).map_err(|e| {
        let at = e.span().map_or(0, |s| s.start);
        let lines: Vec<&str> = e.message().lines().map(str::trim).filter(|l| !l.is_empty()).collect();
        err(at, lines.join(": "))
    })?;
    let discount = exact(text, &raw.discount)?;
    if discount.is_negative() || discount > Q::one() {
        return Err(err(raw.discount.span().start, format!("the discount must be between 0 and 1, not {discount}")));
    }
    let names: Vec<&Spanned<String>> = raw.states.0.iter().map(|(k, _)| k).collect();
    if names.is_empty() {
        return Err(err(0, "no states: add one, e.g. [states.cool]".into()));
    }
    let index = |name: &Spanned<String>| {
        names.iter().position(|n| n.get_ref() == name.get_ref()).ok_or_else(|| {
            let n = name.get_ref();
            err(name.span().start, format!("unknown state '{n}' (declare it as [states.{n}]; no actions = terminal)"))
        })
    };
    let mut states = Vec::new();
    for (state, actions) in &raw.states.0 {
        let mut parsed = Vec::new();
        for (action, outcomes) in &actions.0 {
            let label = format!("{}/{}", state.get_ref(), action.get_ref());
            if outcomes.get_ref().is_empty() {
                return Err(err(outcomes.span().start, format!("{label} has no outcomes")));
            }
            let mut list = Vec::new();
            let mut total = Q::zero();
            for o in outcomes.get_ref() {
                let o = o.get_ref();
                let p = exact(text, &o.p)?;
                if p.is_negative() || p > Q::one() {
                    return Err(err(o.p.span().start, format!("a probability must be between 0 and 1, not {p}")));
                }
                total += &p;
                let reward = match &o.reward {
                    Some(r) => exact(text, r)?,
                    None => Q::zero(),
                };
                list.push(Outcome { to: index(&o.to)?, p, reward });
            }
            if !total.is_one() {
                let sum = number::fraction(&total);
                return Err(err(action.span().start, format!("the probabilities of {label} sum to {sum}, not 1")));
            }
            parsed.push(Action { name: action.get_ref().clone(), outcomes: list });
        }
        states.push(State { name: state.get_ref().clone(), actions: parsed });
    }
    let policy = match &raw.policy {
        None => None,
        Some(table) => Some(policy(text, &states, table, &index)?),
    };
    Ok(Mdp { states, discount, policy })
}

fn policy(
    text: &str,
    states: &[State],
    table: &Ordered<Spanned<String>>,
    index: &dyn Fn(&Spanned<String>) -> Result<usize, SourceError>,
) -> Result<Vec<Option<usize>>, SourceError> {
    let err = |at: usize, msg: String| SourceError::at(text, at, msg);
    let mut chosen: Vec<Option<usize>> = vec![None; states.len()];
    for (state, action) in &table.0 {
        let s = index(state)?;
        let st = &states[s];
        if st.terminal() {
            return Err(err(state.span().start, format!("{} is terminal: it has no action to choose", st.name)));
        }
        let a = st.actions.iter().position(|a| &a.name == action.get_ref()).ok_or_else(|| {
            let known: Vec<&str> = st.actions.iter().map(|a| a.name.as_str()).collect();
            let msg = format!("{} has no action '{}' (it has {})", st.name, action.get_ref(), known.join(", "));
            err(action.span().start, msg)
        })?;
        chosen[s] = Some(a);
    }
    let at = table.0.first().map_or_else(|| text.find("[policy]").unwrap_or(0), |(k, _)| k.span().start);
    let missing: Vec<&str> = states
        .iter()
        .zip(&chosen)
        .filter(|(s, c)| !s.terminal() && c.is_none())
        .map(|(s, _)| s.name.as_str())
        .collect();
    if !missing.is_empty() {
        return Err(err(at, format!("the policy gives no action for {}", missing.join(", "))));
    }
    Ok(chosen)
}

/// A number exactly as written: an integer, a decimal (re-read from the file, so 0.1 is 1/10) or a string.
fn exact(text: &str, value: &Spanned<toml::Value>) -> Result<Q, SourceError> {
    let at = value.span().start;
    let parsed = match value.get_ref() {
        toml::Value::Integer(n) => Ok(number::int(*n)),
        toml::Value::Float(_) => number::parse(text.get(value.span()).unwrap_or("")),
        toml::Value::String(s) => number::parse(s),
        other => Err(format!("expected a number, found a {}", other.type_str())),
    };
    parsed.map_err(|m| SourceError::at(text, at, m))
}

#[cfg(test)]
mod tests {
    // Invariant: every unwrap/expect/panic in this module is a test assertion on inputs the test itself fixes,
    // never on user input; a failure is the test failing.
    use super::*;

    const SMALL: &str = "discount = 0.9\n[states.a]\ngo = [{ to = \"a\", p = 0.1, reward = 1 }, \
                         { to = \"b\", p = \"9/10\" }]\nstay = [{ to = \"a\", p = 1 }]\n[states.b]\n";

    #[test]
    fn keeps_file_order_and_exact_numbers() {
        let m = parse(SMALL).unwrap();
        assert_eq!(m.discount, number::parse("9/10").unwrap());
        assert_eq!(m.states[0].actions.iter().map(|a| a.name.as_str()).collect::<Vec<_>>(), ["go", "stay"]);
        assert_eq!(m.states[0].actions[0].outcomes[0].p, number::parse("1/10").unwrap());
        assert_eq!(m.states[0].actions[0].outcomes[1].reward, number::int(0));
        assert!(m.states[1].terminal());
        assert_eq!(m.policy, None);
        let z = parse("discount = 1\n[states.z]\nb = [{ to = \"z\", p = 1 }]\na = [{ to = \"z\", p = 1 }]\n").unwrap();
        assert_eq!(z.states[0].actions[0].name, "b");
    }

    #[test]
    fn errors_point_at_the_mistake() {
        let e = |t: &str| parse(t).unwrap_err().to_string();
        assert_eq!(
            e("discount = 1\n[states.a]\ngo = [{ to = \"a\", p = 0.5 }]\n"),
            "line 3, column 1: the probabilities of a/go sum to 1/2, not 1"
        );
        assert_eq!(
            e("discount = 1\n[states.a]\ngo = [{ to = \"b\", p = 1 }]\n"),
            "line 3, column 14: unknown state 'b' (declare it as [states.b]; no actions = terminal)"
        );
        assert_eq!(e("discount = 2\n[states.a]\n"), "line 1, column 12: the discount must be between 0 and 1, not 2");
        assert_eq!(
            e("discount = 1\n[states.a]\n[policy]\na = \"x\"\n"),
            "line 4, column 1: a is terminal: it has no action to choose"
        );
        assert!(
            e("discount = 1\n[states.a]\ngo = [{ to = \"a\", p = 1, rewrad = 2 }]\n").starts_with("line 3, column ")
        );
        assert!(e("discount = \n").starts_with("line 1, column 12"));
        assert_eq!(
            e("discount = 1\n[states.a]\ngo = [{ to = \"a\" p = 1 }]\n"),
            "line 3, column 18: invalid inline table: expected `}`"
        );
    }
}
