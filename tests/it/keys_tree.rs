//! `referee tree`: the hand-worked answers of the written problems, alpha-beta against minimax on random trees,
//! snapshots of the key and its DOT picture, the SVG's shape, and malformed input pointing at line and column.

use assert_cmd::Command;
use predicates::prelude::*;
use proptest::prelude::*;
use referee::app::keys::tree::key;
use referee::cli::TreeArgs;
use referee::game::tree::{Kind, Tree, TreeGame};
use referee::keys::number;
use referee::keys::table::Format;
use referee::keys::tree::order::ChildOrder;
use referee::keys::tree::{notation, solve, trace};

use crate::util::in_snapshot_dir;

const W4701: &str = "testcases/written/w4701-part2-matrix-game.txt";
const W4701_CHANCE: &str = "testcases/written/w4701-part2-expectimax.txt";
const AIMA: &str = "testcases/written/aima-fig5-2.txt";

fn read(path: &str) -> String {
    std::fs::read_to_string(path).unwrap()
}

fn args(format: Format, order: ChildOrder) -> TreeArgs {
    TreeArgs { input: "-".into(), format, order, dot: None, svg: None }
}

/// The solved W4701 step table, row by row as the student wrote it: step, node, alpha, beta, value, skipped.
/// Its alpha and beta are the window each node was entered with.
const STUDENT: &[(&str, &str, &str, &str, &str)] = &[
    ("Root", "-inf", "+inf", "4", "-"),
    ("A", "-inf", "+inf", "3", "-"),
    ("6", "-inf", "+inf", "6", "-"),
    ("3", "-inf", "6", "3", "-"),
    ("5", "-inf", "3", "5", "-"),
    ("B", "3", "+inf", "0", "-"),
    ("2", "3", "+inf", "2", "0,8"),
    ("C", "3", "+inf", "4", "-"),
    ("7", "3", "+inf", "7", "-"),
    ("4", "3", "7", "4", "-"),
    ("6", "3", "4", "4", "-"),
    ("D", "3", "+inf", "1", "-"),
    ("D", "4", "+inf", "4", "1,3"),
];

#[test]
fn w4701_part2_reproduces_the_solved_step_table() {
    let tree = notation::parse(&read(W4701)).unwrap();
    let t = trace::trace(&TreeGame::new(&tree)).unwrap();
    assert_eq!(t.steps.len(), STUDENT.len(), "13 steps, as in the solved table");
    // Steps 1-5 and 7-10 agree with the solved table cell for cell (node, window entered with, value).
    for i in [0, 1, 2, 3, 4, 6, 7, 8, 9] {
        let (node, alpha, beta, value, _) = STUDENT[i];
        let s = &t.steps[i];
        let row = (tree.name(s.node), s.entry.0.to_string(), s.entry.1.to_string(), s.value.to_string());
        assert_eq!(row, (node.to_string(), alpha.to_string(), beta.to_string(), value.to_string()), "step {}", i + 1);
    }
    // Step 11 is leaf 6 entered with (3, 4); the student wrote C's running minimum (4) as its value.
    assert_eq!((tree.name(t.steps[10].node), t.steps[10].entry.1.to_string()), ("6".into(), "4".into()));
    // B is cut after its first leaf and skips 0 and 8; D is entered with alpha 4 (the student's step 13), is cut
    // by its first leaf 4 (4 <= alpha) and skips 1 and 3. Fail-soft AIMA 5.7 returns 2 for B and 4 for D.
    let b = &t.steps[5];
    let names = |ids: &[usize]| ids.iter().map(|&c| tree.name(c)).collect::<Vec<_>>().join(",");
    assert_eq!((tree.name(b.node), names(&b.skipped), b.value.to_string()), ("B".into(), "0,8".into(), "2".into()));
    let d = &t.steps[11];
    let (_, alpha, beta, value, skipped) = STUDENT[12];
    assert_eq!(
        (tree.name(d.node), d.entry.0.to_string(), d.entry.1.to_string(), d.value.to_string(), names(&d.skipped)),
        ("D".into(), alpha.into(), beta.into(), value.into(), skipped.into())
    );
    // "So the player A should choose the third row": the root's value is 4, through C.
    assert_eq!((t.value.to_string(), t.best), (STUDENT[0].3.to_string(), Some(2)));
    let values = solve::solve(&tree).unwrap();
    assert_eq!((number::fraction(&values.values[0]), values.best), ("4".into(), Some(2)));
}

#[test]
fn w4701_part2_expectimax_chooses_the_third_row() {
    let tree = notation::parse(&read(W4701_CHANCE)).unwrap();
    let values = solve::solve(&tree).unwrap();
    // The key says "A should choose the third row" (question 3).
    assert_eq!(values.best, Some(2));
    assert!(values.expectimax);
    // Its "expected game value is 14/3" is, under equal chances, the first row's value; see the report.
    assert_eq!(number::fraction(&values.values[1]), "14/3");
    let text = key("w", &read(W4701_CHANCE), &args(Format::Text, ChildOrder::Left)).unwrap().text;
    assert!(text.contains("14/3") && text.contains("4.667"), "{text}");
    assert!(text.contains("No alpha-beta table"), "{text}");
}

#[test]
fn aima_figure_5_5() {
    let tree = notation::parse(&read(AIMA)).unwrap();
    let t = trace::trace(&TreeGame::new(&tree)).unwrap();
    let c = t.steps.iter().find(|s| tree.name(s.node) == "C").unwrap();
    let skipped: Vec<String> = c.skipped.iter().map(|&n| tree.name(n)).collect();
    assert_eq!((c.value.to_string(), skipped), ("2".to_string(), vec!["4".to_string(), "6".to_string()]));
    assert_eq!(t.value.to_string(), "3");
    // Right to left the same tree prunes nothing, and the value stays 3: ordering changes only what is pruned.
    let values = solve::solve(&tree).unwrap();
    let reversed = trace::trace(&ChildOrder::Reverse.game(&tree, &values.values)).unwrap();
    assert_eq!(reversed.value.to_string(), "3");
    assert!(reversed.visited.iter().all(|&v| v), "right to left, every node is visited");
}

#[test]
fn snapshots_of_the_key_and_dot() {
    for (name, path) in [("w4701", W4701), ("aima", AIMA), ("w4701_chance", W4701_CHANCE)] {
        let text = read(path);
        for (label, format, order) in [
            ("text", Format::Text, ChildOrder::Left),
            ("md", Format::Md, ChildOrder::Left),
            ("best", Format::Text, ChildOrder::Best),
        ] {
            let k = key(name, &text, &args(format, order)).unwrap();
            in_snapshot_dir(&format!("{name}_{label}"), || insta::assert_snapshot!("keys_tree", k.text));
        }
        let k = key(name, &text, &args(Format::Text, ChildOrder::Left)).unwrap();
        in_snapshot_dir(name, || insta::assert_snapshot!("keys_tree_dot", k.dot));
    }
}

#[test]
fn svg_is_self_contained_with_one_text_per_node() {
    for path in [W4701, W4701_CHANCE, AIMA] {
        let text = read(path);
        let tree = notation::parse(&text).unwrap();
        let svg = key("t", &text, &args(Format::Text, ChildOrder::Left)).unwrap().svg;
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        assert!(svg.trim_end().ends_with("</svg>"));
        // One text per node, then the legend's lines.
        assert_eq!(svg.matches("<text x=").count(), tree.len());
        let legend = svg.matches("<text class=\"legend\"").count();
        assert!(legend >= 2, "{path}: a legend");
        assert_eq!(svg.matches("</text>").count(), tree.len() + legend);
        for external in ["href", "<image", "<script", "@import", "url("] {
            assert!(!svg.contains(external), "{path}: {external}");
        }
    }
    let svg = key("t", &read(W4701), &args(Format::Text, ChildOrder::Left)).unwrap().svg;
    assert_eq!(svg.matches("stroke=\"#c00\" stroke-dasharray").count(), 4, "four pruned edges: 0, 8, 1, 3");
}

/// A node alpha-beta stopped early is labelled with the bound the search returned, not its minimax value, which
/// stands apart; a node never reached says so; the legend explains the symbols.
#[test]
fn the_svg_labels_a_cut_off_node_with_its_bound() {
    // AIMA Figure 5.5 with C's leaves [2 1 6]: C stops at 2 <= alpha 3, so alpha-beta knows only C <= 2 (minimax 1).
    let text = "[B: [3 12 8] C: [2 1 6] D: [14 5 2] E: min [1 F: [9 9]]]";
    let k = key("t", text, &args(Format::Text, ChildOrder::Left)).unwrap();
    let svg = &k.svg;
    let label = |start: &str| {
        let at = svg.find(start).unwrap_or_else(|| panic!("no {start:?} in {svg}"));
        svg[at..at + svg[at..].find("</text>").unwrap()].to_string()
    };
    let c = label(">C ");
    assert!(c.starts_with(">C ≤ 2<tspan") && c.ends_with(">minimax 1</tspan>"), "{c}");
    assert!(!svg.contains("C = 1"), "the minimax value is not shown as what the search found");
    let b = label(">B ");
    assert_eq!(b, ">B = 3", "an exact value needs nothing apart");
    let f = label(">F:");
    assert!(f.starts_with(">F: not searched<tspan") && f.ends_with(">minimax 9</tspan>"), "{f}");
    assert!(svg.contains("the bound alpha-beta returned"), "the legend explains ≤ and ≥");
    // The DOT picture says the same.
    assert!(k.dot.contains("label=\"C ≤ 2\\nminimax 1\""), "{}", k.dot);
    assert!(k.dot.contains("labelloc=b"), "{}", k.dot);
}

#[test]
fn order_on_a_chance_tree_is_reported_as_ignored() {
    Command::cargo_bin("referee").unwrap().args(["tree", W4701_CHANCE, "--order", "best"]).assert().success().stderr(
        "referee tree: warning: --order best is ignored: this tree has CHANCE nodes, so there is no alpha-beta \
             search to order (expectimax looks at every child)\n",
    );
    Command::cargo_bin("referee").unwrap().args(["tree", W4701, "--order", "best"]).assert().success().stderr("");
}

#[test]
fn unnamed_inner_nodes_are_named_by_their_path_from_the_root() {
    let k = key("t", "[[3 12 8] [2 4 6]]", &args(Format::Text, ChildOrder::Left)).unwrap();
    assert!(k.text.lines().any(|l| l.starts_with("root.2  ") && l.contains("MIN")), "{}", k.text);
}

#[test]
fn cli_writes_key_and_pictures() {
    let dir = tempfile::tempdir().unwrap();
    let (dot, svg) = (dir.path().join("t.dot"), dir.path().join("t.svg"));
    Command::cargo_bin("referee")
        .unwrap()
        .args(["tree", W4701, "--format", "md", "--dot"])
        .arg(&dot)
        .arg("--svg")
        .arg(&svg)
        .assert()
        .success()
        .stdout(predicate::str::contains("| step | node | α | β | value | children skipped |"))
        .stdout(predicate::str::contains("Move at the root (MAX): child 3 (C), worth 4."));
    assert!(std::fs::read_to_string(dot).unwrap().starts_with("digraph tree {"));
    assert!(std::fs::read_to_string(svg).unwrap().starts_with("<svg"));
    Command::cargo_bin("referee")
        .unwrap()
        .args(["tree", "-"])
        .write_stdin("[[3 12 8] [2 4 6] [14 5 2]]")
        .assert()
        .success()
        .stdout(predicate::str::contains("Root value: alpha-beta 3, minimax 3 (they agree)."));
}

#[test]
fn malformed_trees_point_at_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        ("bad-close.txt", "max [\n  [1 2]\n  [3 4\n", "line 3, column 3: this '[' is never closed"),
        (
            "bad-open.txt",
            "max [\n  [3 12 8]\n  [2 4 6\n  [14 5 2]\n]\n",
            "line 3, column 3: this '[' is not closed on its line, so the '[' on line 1, column 5 is never closed",
        ),
        ("bad-number.txt", "[\n  [1 2/0]\n]\n", "line 2, column 6: '2/0' divides by zero"),
        ("bad-word.txt", "[[1 2]\n [3 foo]]", "line 2, column 5: 'foo' is neither a node kind"),
        (
            "bad-prob.txt",
            "chance [\n 1/2: 1\n 1/3: 2 ]",
            "line 1, column 8: the probabilities of this chance node add up to 5/6, not 1",
        ),
        ("bad-label.txt", "[A: 1\n A: 2]", "line 2, column 2: label 'A' is already used on line 1"),
    ];
    for (file, text, message) in cases {
        let path = dir.path().join(file);
        std::fs::write(&path, text).unwrap();
        let expected = format!("referee tree: {}: {message}", path.display());
        Command::cargo_bin("referee")
            .unwrap()
            .arg("tree")
            .arg(&path)
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::starts_with(expected));
    }
    Command::cargo_bin("referee")
        .unwrap()
        .args(["tree", "no/such/file.txt"])
        .assert()
        .code(2)
        .stderr(predicate::str::starts_with("referee tree: no/such/file.txt: "));
}

/// A random MAX/MIN tree: leaves are small fractions, nodes alternate MAX and MIN.
#[derive(Clone, Debug)]
enum Shape {
    Leaf(i64, i64),
    Node(Vec<Shape>),
}

fn shape() -> impl Strategy<Value = Shape> {
    let leaf = (-20i64..20, 1i64..4).prop_map(|(n, d)| Shape::Leaf(n, d));
    leaf.prop_recursive(5, 80, 4, |inner| prop::collection::vec(inner, 1..4).prop_map(Shape::Node))
}

fn build(shape: &Shape, tree: &mut Tree, parent: Option<usize>, max: bool) {
    match shape {
        Shape::Leaf(n, d) => {
            tree.add(parent, None, Kind::Leaf(number::parse(&format!("{n}/{d}")).unwrap()), None);
        }
        Shape::Node(children) => {
            let id = tree.add(parent, None, if max { Kind::Max } else { Kind::Min }, None);
            for c in children {
                build(c, tree, Some(id), !max);
            }
        }
    }
}

proptest! {
    #[test]
    fn alpha_beta_agrees_with_minimax_in_any_order(s in shape(), max in any::<bool>(), seed in any::<u64>()) {
        let mut tree = Tree::new();
        build(&s, &mut tree, None, max);
        let values = solve::solve(&tree).unwrap();
        let root = values.values[0].clone();
        for order in [ChildOrder::Left, ChildOrder::Reverse, ChildOrder::Best, ChildOrder::Worst] {
            let t = trace::trace(&order.game(&tree, &values.values)).unwrap();
            prop_assert_eq!(t.value.to_q(), Some(root.clone()), "{:?}", order);
            // The chosen move is worth the root's value.
            if let Some(pos) = t.best {
                prop_assert_eq!(&values.values[tree.node(0).children[pos]], &root);
            }
        }
        // Any permutation of every node's children (a seeded shuffle).
        let shuffled = TreeGame::with_order(&tree, |id, n| {
            let mut order: Vec<usize> = (0..n).collect();
            let mut x = seed ^ (id as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            for i in (1..n).rev() {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                order.swap(i, (x % (i as u64 + 1)) as usize);
            }
            order
        });
        let t = trace::trace(&shuffled).unwrap();
        prop_assert_eq!(t.value.to_q(), Some(root));
    }
}
