//! Expectimax problems: MAX at the root over 2 or 3 CHANCE nodes, each with 2 or 3 outcomes that are leaves or
//! (in about a third of the trees) MIN nodes over two leaves; the probabilities are small fractions (1/2, 1/3,
//! 1/4, 1/6, 2/5, ...). Asked: the root's value, every chance node's value, exactly (`14/3`), and MAX's move.
//!
//! A drawn tree is kept only with one best child at the root, and when averaging a chance node's children with
//! equal weights changes both a chance node's value and the root's (so that misconception shows).

use super::answer::{Answer, Form, Vocabulary};
use super::misconception::Misconception;
use super::part::{Part, PartSpec};
use super::seed::Draw;
use super::sheet::{Figure, Sheet};
use super::tree::{build, notation, swapped, uniform, Shape};
use super::Drawn;
use crate::game::tree::{Kind, Tree};
use crate::keys::number::{self, Q};
use crate::keys::tree::solve;
use crate::rng::Rng;

const VALUE: PartSpec = PartSpec { key: "value", title: "root value", form: Form::Number, points: 3 };
const CHANCE: PartSpec =
    PartSpec { key: "chance", title: "values of the chance nodes", form: Form::NumberMap, points: 5 };
const MOVE: PartSpec = PartSpec { key: "move", title: "move at the root", form: Form::Label, points: 2 };

/// The parts, in the order asked.
pub const PARTS: &[PartSpec] = &[VALUE, CHANCE, MOVE];

/// Probability lists for 2 and 3 outcomes (numerator, denominator).
const TWO: &[[(i64, i64); 2]] = &[
    [(1, 2), (1, 2)],
    [(1, 3), (2, 3)],
    [(2, 3), (1, 3)],
    [(1, 4), (3, 4)],
    [(3, 4), (1, 4)],
    [(2, 5), (3, 5)],
    [(3, 5), (2, 5)],
    [(1, 5), (4, 5)],
];
const THREE: &[[(i64, i64); 3]] = &[
    [(1, 2), (1, 4), (1, 4)],
    [(1, 4), (1, 2), (1, 4)],
    [(1, 4), (1, 4), (1, 2)],
    [(1, 2), (1, 3), (1, 6)],
    [(1, 6), (1, 3), (1, 2)],
    [(1, 3), (1, 6), (1, 2)],
    [(1, 5), (2, 5), (2, 5)],
    [(1, 3), (1, 3), (1, 3)],
];

fn fraction((n, d): (i64, i64)) -> Q {
    number::int(n) / number::int(d)
}

/// Draws trees from `rng` until one is well posed.
pub fn draw(rng: &mut Rng) -> Drawn {
    loop {
        let with_min = rng.chance(1, 3);
        let chance_nodes = rng.int(2, 3);
        let mut children = Vec::new();
        for _ in 0..chance_nodes {
            let probabilities: Vec<Q> = if rng.chance(1, 2) {
                rng.pick(TWO).iter().copied().map(fraction).collect()
            } else {
                rng.pick(THREE).iter().copied().map(fraction).collect()
            };
            let outcomes = probabilities
                .into_iter()
                .map(|p| {
                    let child = if with_min {
                        let leaves = (0..2).map(|_| (None, Shape::Leaf(number::int(rng.int(-4, 12))))).collect();
                        Shape::Inner(Kind::Min, leaves)
                    } else {
                        Shape::Leaf(number::int(rng.int(-4, 12)))
                    };
                    (Some(p), child)
                })
                .collect();
            children.push((None, Shape::Inner(Kind::Chance, outcomes)));
        }
        if let Some(drawn) = pose(&build(&Shape::Inner(Kind::Max, children))) {
            return drawn;
        }
    }
}

fn pose(tree: &Tree) -> Option<Drawn> {
    let root = tree.root();
    let right = solve::solve(tree).ok()?;
    let children = tree.node(root).children.clone();
    if children.iter().filter(|&&c| right.values[c] == right.values[root]).count() != 1 {
        return None;
    }
    let even = solve::solve(&uniform(tree)).ok()?;
    if even.values[root] == right.values[root] || children.iter().all(|&c| even.values[c] == right.values[c]) {
        return None;
    }
    let flipped = solve::solve(&swapped(tree)).ok()?;
    let names: Vec<String> = children.iter().map(|&c| tree.name(c)).collect();
    let chance_map =
        |values: &[Q]| Answer::Numbers(children.iter().map(|&c| (tree.name(c), values[c].clone())).collect());
    let best = |v: &solve::Values| v.best.map(|b| Answer::Label(names[b].clone()));
    let root_name = tree.name(root);
    let parts = vec![
        Part::new(
            VALUE,
            format!("What is the expectimax value of the root {root_name}? Give it exactly (a fraction such as 14/3)."),
            Vocabulary::default(),
            "a number",
            Answer::Number(right.values[root].clone()),
        )
        .wrong(Misconception::IgnoresProbabilities, Some(Answer::Number(even.values[root].clone())))
        .wrong(Misconception::MinMaxSwapped, Some(Answer::Number(flipped.values[root].clone()))),
        Part::new(
            CHANCE,
            format!("Give the exact value of every chance node: {}.", names.join(", ")),
            Vocabulary { keys: names.clone(), values: Vec::new() },
            "a chance node",
            chance_map(&right.values),
        )
        .wrong(Misconception::IgnoresProbabilities, Some(chance_map(&even.values)))
        .wrong(Misconception::MinMaxSwapped, Some(chance_map(&flipped.values))),
        Part::new(
            MOVE,
            format!("Which child of {root_name} does MAX move to ({})?", names.join(", ")),
            Vocabulary { keys: names.clone(), values: Vec::new() },
            "a child of the root",
            best(&right)?,
        )
        .wrong(Misconception::IgnoresProbabilities, best(&even))
        .wrong(Misconception::MinMaxSwapped, best(&flipped)),
    ];
    let text = notation(tree);
    Some(Drawn { canonical: text.clone(), input: text, sheet: sheet(tree), parts })
}

fn sheet(tree: &Tree) -> Sheet {
    let root = tree.name(tree.root());
    let has_min = tree.nodes().iter().any(|n| n.kind == Kind::Min);
    let mut intro = format!(
        "MAX chooses at the root {root}. Each circle is a chance node: nature picks one of its children with the \
         probability written on the edge. Leaves (squares) hold their values for MAX."
    );
    if has_min {
        intro.push_str(" The triangles pointing down are MIN nodes: MIN picks the smallest value.");
    }
    Sheet {
        intro: vec![intro],
        figure: Some(Figure {
            svg: super::sheet::svg::tree(tree),
            alt: format!("The expectimax tree rooted at {root}, with its probabilities and leaf values."),
        }),
        blocks: vec![super::alphabeta::outline(tree)],
        conventions: vec![
            "A chance node's value is the sum over its children of probability times value.".into(),
            "Give values exactly, as integers or fractions in lowest terms (14/3, not 4.67).".into(),
            "No two children of the root tie: the move at the root is unique.".into(),
        ],
    }
}
