//! Alpha-beta problems: a MAX/MIN tree of depth 3 or 4 (2 to 4 children a node, 8 to 18 integer leaves from 0 to
//! 15), asked as the root's minimax value, every other inner node's value, the move at the root, the nodes
//! alpha-beta never visits (AIMA Figure 5.7, children left to right), the final alpha and beta at a named node, and
//! the root child that, searched first, prunes the most.
//!
//! A drawn tree is kept only when it is well posed and tells the wrong methods apart: one best child at the root,
//! at least 2 nodes never visited, a named node whose final window is not (-inf, +inf), one best first child, a
//! cut-off node whose returned bound is not its minimax value, and pruned sets that differ between the right
//! method, the strict-inequality test, right-to-left search and MIN/MAX swapped.

use super::answer::{Answer, Form, Vocabulary};
use super::misconception::Misconception;
use super::part::{Part, PartSpec};
use super::seed::Draw;
use super::sheet::{Block, Figure, Sheet};
use super::tree::{build, notation, swapped, Shape};
use super::wrong::alphabeta::{run, Method, Run};
use super::Drawn;
use crate::game::tree::{Exact, Kind, Tree, TreeGame};
use crate::keys::number::{self, Q};
use crate::keys::tree::{solve, trace};
use crate::rng::Rng;

const VALUE: PartSpec = PartSpec { key: "value", title: "root value", form: Form::Number, points: 1 };
const VALUES: PartSpec =
    PartSpec { key: "values", title: "minimax values of the inner nodes", form: Form::NumberMap, points: 2 };
const MOVE: PartSpec = PartSpec { key: "move", title: "move at the root", form: Form::Label, points: 1 };
const PRUNED: PartSpec = PartSpec { key: "pruned", title: "nodes never visited", form: Form::LabelSet, points: 3 };
const WINDOW: PartSpec =
    PartSpec { key: "window", title: "final alpha and beta at a node", form: Form::Window, points: 2 };
const FIRST: PartSpec = PartSpec { key: "first", title: "child to search first", form: Form::Label, points: 1 };

/// The parts, in the order asked.
pub const PARTS: &[PartSpec] = &[VALUE, VALUES, MOVE, PRUNED, WINDOW, FIRST];

/// Draws trees from `rng` until one is well posed.
pub fn draw(rng: &mut Rng) -> Drawn {
    loop {
        let depth = if rng.chance(2, 3) { 3 } else { 4 };
        let shape = shape(rng, depth, 0, Kind::Max);
        let leaves = count_leaves(&shape);
        if !(8..=18).contains(&leaves) {
            continue;
        }
        if let Some(drawn) = pose(&build(&shape), rng) {
            return drawn;
        }
    }
}

fn shape(rng: &mut Rng, depth: usize, level: usize, kind: Kind) -> Shape {
    if level == depth {
        return Shape::Leaf(number::int(rng.int(0, 15)));
    }
    let most = if depth == 4 { 3 } else { 4 };
    let branching = if level == 0 { rng.int(2, 3) } else { rng.int(2, most) } as usize;
    let next = if kind == Kind::Max { Kind::Min } else { Kind::Max };
    let children = (0..branching).map(|_| (None, shape(rng, depth, level + 1, next.clone()))).collect();
    Shape::Inner(kind, children)
}

fn count_leaves(shape: &Shape) -> usize {
    match shape {
        Shape::Leaf(_) => 1,
        Shape::Inner(_, children) => children.iter().map(|(_, c)| count_leaves(c)).sum(),
    }
}

/// Every node's label, in id order.
fn names(tree: &Tree) -> Vec<String> {
    (0..tree.len()).map(|id| tree.name(id)).collect()
}

/// The labels of the nodes `run` never visited, in id order.
fn unvisited(tree: &Tree, visited: &[bool]) -> Vec<String> {
    (0..tree.len()).filter(|&id| !visited[id]).map(|id| tree.name(id)).collect()
}

/// What the key solvers say about a tree.
struct Key {
    values: Vec<Q>,
    best: usize,
    visited: Vec<bool>,
    window: Vec<Option<(Exact, Exact)>>,
}

fn key(tree: &Tree) -> Option<Key> {
    let solved = solve::solve(tree).ok()?;
    let t = trace::trace(&TreeGame::new(tree)).ok()?;
    let mut window = vec![None; tree.len()];
    for s in &t.steps {
        window[s.node] = Some(s.window);
    }
    Some(Key { values: solved.values, best: solved.best?, visited: t.visited, window })
}

/// How many nodes alpha-beta leaves unvisited when the root's child `first` is searched first.
fn pruned_with_first(tree: &Tree, first: usize) -> Option<usize> {
    let root = tree.root();
    let game = TreeGame::with_order(tree, |id, n| {
        let mut order: Vec<usize> = (0..n).collect();
        if id == root {
            order.retain(|&i| i != first);
            order.insert(0, first);
        }
        order
    });
    Some(trace::trace(&game).ok()?.visited.iter().filter(|v| !**v).count())
}

/// The variant for `tree`, when it is well posed and tells the wrong methods apart.
fn pose(tree: &Tree, rng: &mut Rng) -> Option<Drawn> {
    let root = tree.root();
    let children = tree.node(root).children.clone();
    let right = key(tree)?;
    let root_value = right.values[root].clone();
    if children.iter().filter(|&&c| right.values[c] == root_value).count() != 1 {
        return None;
    }
    let pruned = unvisited(tree, &right.visited);
    if pruned.len() < 2 {
        return None;
    }
    let strict = run(tree, Method { strict: true, ..Method::default() });
    let reverse = run(tree, Method { reverse: true, ..Method::default() });
    let flipped = swapped(tree);
    let swap = key(&flipped)?;
    let sets = [
        pruned.clone(),
        unvisited(tree, &strict.visited),
        unvisited(tree, &reverse.visited),
        unvisited(tree, &swap.visited),
    ];
    for i in 0..sets.len() {
        for j in i + 1..sets.len() {
            if sets[i] == sets[j] {
                return None;
            }
        }
    }
    // Level by level, left to right: the order the labels go in.
    let mut inner: Vec<usize> =
        (0..tree.len()).filter(|&id| id != root && !tree.node(id).children.is_empty()).collect();
    inner.sort_by_key(|&id| (tree.depth(id), id));
    let right_values = value_map(tree, &inner, |id| right.values[id].clone());
    let bounds = cut_bounds(tree, &inner, &right);
    if bounds == right_values {
        return None;
    }
    let candidates: Vec<usize> = inner
        .iter()
        .copied()
        .filter(|&id| right.window[id].is_some_and(|w| w != (Exact::NegInf, Exact::PosInf)))
        .collect();
    if candidates.is_empty() {
        return None;
    }
    let asked = *rng.pick(&candidates);
    let counts: Vec<usize> = (0..children.len()).map(|c| pruned_with_first(tree, c)).collect::<Option<_>>()?;
    let most = counts.iter().copied().max()?;
    if counts.iter().filter(|&&c| c == most).count() != 1 {
        return None;
    }
    let first = counts.iter().position(|&c| c == most)?;
    let firsts = [
        best_first(children.len(), |c| {
            Some(unvisited_count(&run(tree, Method { strict: true, first: Some(c), ..Method::default() })))
        }),
        best_first(children.len(), |c| {
            Some(unvisited_count(&run(tree, Method { reverse: true, first: Some(c), ..Method::default() })))
        }),
        best_first(children.len(), |c| pruned_with_first(&flipped, c)),
    ];
    Some(assemble(tree, &right, Wrongs { strict, reverse, swapped: (flipped, swap), firsts }, asked, first, &inner))
}

/// How many nodes a run leaves unvisited.
fn unvisited_count(run: &Run) -> usize {
    run.visited.iter().filter(|v| !**v).count()
}

/// The root child that, searched first, leaves the most nodes unvisited (`count` per child); of several, the
/// leftmost, as a student scanning the children in order keeps the first best.
fn best_first(children: usize, count: impl Fn(usize) -> Option<usize>) -> Option<usize> {
    let counts: Vec<usize> = (0..children).map(count).collect::<Option<_>>()?;
    let most = counts.iter().copied().max()?;
    counts.iter().position(|&c| c == most)
}

/// A value per inner node (not the root), in label order.
fn value_map(tree: &Tree, inner: &[usize], value: impl Fn(usize) -> Q) -> Answer {
    Answer::Numbers(inner.iter().map(|&id| (tree.name(id), value(id))).collect())
}

/// What a student answers who gives the value alpha-beta returned at each visited node as its minimax value.
fn cut_bounds(tree: &Tree, inner: &[usize], right: &Key) -> Answer {
    let returned = run(tree, Method::default()).returned;
    value_map(tree, inner, |id| returned[id].and_then(Exact::to_q).unwrap_or_else(|| right.values[id].clone()))
}

/// The wrong methods' runs.
struct Wrongs {
    strict: Run,
    reverse: Run,
    swapped: (Tree, Key),
    /// The child each wrong method (strict, right to left, MIN and MAX swapped) would search first.
    firsts: [Option<usize>; 3],
}

fn window_of(w: Option<(Exact, Exact)>) -> Option<Answer> {
    w.map(|(a, b)| Answer::Window(a, b))
}

fn assemble(tree: &Tree, right: &Key, wrongs: Wrongs, asked: usize, first: usize, inner: &[usize]) -> Drawn {
    let root = tree.root();
    let labels = names(tree);
    let root_name = tree.name(root);
    let children: Vec<String> = tree.node(root).children.iter().map(|&c| tree.name(c)).collect();
    let inner_names: Vec<String> = inner.iter().map(|&id| tree.name(id)).collect();
    let (flipped, swap) = &wrongs.swapped;
    let child_vocab = Vocabulary { keys: children.clone(), values: Vec::new() };
    let asked_name = tree.name(asked);
    let parts = vec![
        Part::new(
            VALUE,
            format!("What is the minimax value of the root {root_name}?"),
            Vocabulary::default(),
            "a number",
            Answer::Number(right.values[root].clone()),
        )
        .wrong(Misconception::MinMaxSwapped, Some(Answer::Number(swap.values[root].clone()))),
        Part::new(
            VALUES,
            format!("Give the minimax value of every other inner node: {}.", inner_names.join(", ")),
            Vocabulary { keys: inner_names.clone(), values: Vec::new() },
            "an inner node of the tree",
            value_map(tree, inner, |id| right.values[id].clone()),
        )
        .wrong(Misconception::CutBoundAsValue, Some(cut_bounds(tree, inner, right)))
        .wrong(Misconception::MinMaxSwapped, Some(value_map(flipped, inner, |id| swap.values[id].clone()))),
        Part::new(
            MOVE,
            format!("Which child of {root_name} does MAX move to ({})?", children.join(", ")),
            child_vocab.clone(),
            "a child of the root",
            Answer::Label(children[right.best].clone()),
        )
        .wrong(Misconception::MinMaxSwapped, Some(Answer::Label(children[swap.best].clone()))),
        Part::new(
            PRUNED,
            format!(
                "Run alpha-beta from {root_name} with (alpha, beta) = (-inf, +inf), children left to right. Which \
                 nodes does it never visit? List every one, inner nodes and leaves: a node below a pruned branch \
                 is never visited either."
            ),
            Vocabulary { keys: labels.clone(), values: Vec::new() },
            "a node of the tree",
            Answer::Set(unvisited(tree, &right.visited)),
        )
        .wrong(Misconception::StrictPruning, Some(Answer::Set(unvisited(tree, &wrongs.strict.visited))))
        .wrong(Misconception::RightToLeft, Some(Answer::Set(unvisited(tree, &wrongs.reverse.visited))))
        .wrong(Misconception::MinMaxSwapped, Some(Answer::Set(unvisited(flipped, &swap.visited)))),
        Part::new(
            WINDOW,
            format!("In that run, what are alpha and beta at node {asked_name} when the search returns from it?"),
            Vocabulary::default(),
            "a bound",
            window_of(right.window[asked]).unwrap_or(Answer::Window(Exact::NegInf, Exact::PosInf)),
        )
        .wrong(Misconception::StrictPruning, window_of(wrongs.strict.window[asked]))
        .wrong(Misconception::RightToLeft, window_of(wrongs.reverse.window[asked]))
        .wrong(Misconception::MinMaxSwapped, window_of(swap.window[asked])),
        Part::new(
            FIRST,
            format!(
                "Suppose alpha-beta could search one child of {root_name} first, and the others after it in their \
                 order. Which child should go first so that the most nodes are never visited ({})?",
                children.join(", ")
            ),
            child_vocab,
            "a child of the root",
            Answer::Label(children[first].clone()),
        )
        .wrong(Misconception::StrictPruning, wrongs.firsts[0].map(|c| Answer::Label(children[c].clone())))
        .wrong(Misconception::RightToLeft, wrongs.firsts[1].map(|c| Answer::Label(children[c].clone())))
        .wrong(Misconception::MinMaxSwapped, wrongs.firsts[2].map(|c| Answer::Label(children[c].clone()))),
    ];
    let text = notation(tree);
    let canonical = format!("{text}window at {asked_name}");
    Drawn { canonical, input: text, sheet: sheet(tree), parts }
}

/// The statement: the figure, the tree as an outline, the conventions.
fn sheet(tree: &Tree) -> Sheet {
    let root = tree.name(tree.root());
    Sheet {
        intro: vec![format!(
            "In the game tree below MAX moves at the root {root}, and the levels alternate between MAX (triangles \
             pointing up) and MIN (triangles pointing down). The leaves (squares) hold their values for MAX; \
             inner nodes are named with capital letters and leaves with small ones."
        )],
        figure: Some(Figure {
            svg: super::sheet::svg::tree(tree),
            alt: format!("The game tree rooted at {root}, drawn with its labels and leaf values."),
        }),
        blocks: vec![outline(tree)],
        conventions: vec![
            "Alpha-beta is AIMA Figure 5.7: it starts at the root with alpha = -inf and beta = +inf and searches \
             children left to right."
                .into(),
            "A MAX node stops searching its children as soon as its value v >= beta; a MIN node as soon as v <= \
             alpha (equality prunes). A node's value v starts at -inf (MAX) or +inf (MIN)."
                .into(),
            "A node's final alpha and beta are the values they have inside that node when the search returns from \
             it."
            .into(),
            "No two children of the root tie: the move at the root is unique.".into(),
        ],
    }
}

/// The tree as an outline: `A (MAX)`, `B (MIN)`, `h = 3`, with edge probabilities when there are any.
pub fn outline(tree: &Tree) -> Block {
    let mut lines = Vec::new();
    for id in 0..tree.len() {
        let node = tree.node(id);
        let p = node.probability.as_ref().map(|p| format!("[p = {}] ", number::fraction(p))).unwrap_or_default();
        let text = match &node.kind {
            Kind::Leaf(v) => format!("{p}{} = {}", tree.name(id), number::fraction(v)),
            kind => format!("{p}{} ({})", tree.name(id), kind.name()),
        };
        lines.push((tree.depth(id), text));
    }
    Block::Outline { caption: "The same tree as an outline (children in left-to-right order):".into(), lines }
}
