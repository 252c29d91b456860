//! Every generated variant, checked by the answer-key solvers (never by numbers typed in): its problem text reads
//! back through the key tools' own parsers, their solvers give the variant's answers, the answers are unique under
//! the sheet's conventions (no tie at the root, in a greedy policy, in MRV after the degree, at a climb's best
//! neighbour), pruning leaves at least 2 nodes unvisited, numbers stay small, and every wrong method differs from
//! the right one where the generator promises it. Also: the key commands print the same answers, and a class of
//! 1,500 gets 1,500 different variants of every kind.

use std::collections::HashSet;

use assert_cmd::Command;
use proptest::prelude::*;
use referee::exercise::answer::Answer;
use referee::exercise::misconception::Misconception;
use referee::exercise::{tree as ex_tree, variant, Kind, Variant};
use referee::game::tree::{Kind as NodeKind, TreeGame};
use referee::keys::csp::forward::State;
use referee::keys::csp::heuristics::{degree, most_constrained, next_variable};
use referee::keys::mdp::bellman::q_values;
use referee::keys::number::{self, Q};
use referee::keys::tree::{notation, solve, trace};

use crate::exercise_students::answers;

fn part<'a>(v: &'a Variant, key: &str) -> &'a referee::exercise::part::Part {
    v.parts.iter().find(|p| p.spec.key == key).unwrap()
}

fn wrongs(v: &Variant, key: &str) -> Vec<Misconception> {
    part(v, key).wrong.iter().map(|(m, _)| *m).collect()
}

/// The right answers the key solvers give (worked by the synthetic student's right method) equal the variant's
/// answers, part by part, once both are read the same way.
fn agrees_with_the_solvers(v: &Variant) {
    let worked = answers(v, None);
    for p in &v.parts {
        let read = referee::exercise::answer::parse(p.spec.form, &worked[p.spec.key])
            .and_then(|a| referee::exercise::answer::resolve(a, &p.vocabulary, p.what))
            .unwrap();
        let same = match (&read, &p.expected) {
            (Answer::Set(a), Answer::Set(b)) => a.iter().collect::<HashSet<_>>() == b.iter().collect::<HashSet<_>>(),
            (a, b) => a == b,
        };
        assert!(
            same,
            "{} {}: the solvers give {}, the variant says {}",
            v.code,
            p.spec.key,
            read.show(),
            p.expected.show()
        );
    }
}

fn well_posed_tree(v: &Variant) {
    let tree = notation::parse(&v.input).unwrap();
    let values = solve::solve(&tree).unwrap().values;
    let root = tree.root();
    let best = tree.node(root).children.iter().filter(|&&c| values[c] == values[root]).count();
    assert_eq!(best, 1, "{}: one best child at the root", v.code);
    if v.kind == Kind::Expectimax {
        assert!(wrongs(v, "chance").contains(&Misconception::IgnoresProbabilities), "{}", v.code);
        return;
    }
    let t = trace::trace(&TreeGame::new(&tree)).unwrap();
    assert!(t.visited.iter().filter(|x| !**x).count() >= 2, "{}: pruning happens", v.code);
    let leaves: Vec<Q> = tree
        .nodes()
        .iter()
        .filter_map(|n| if let NodeKind::Leaf(q) = &n.kind { Some(q.clone()) } else { None })
        .collect();
    assert!((8..=18).contains(&leaves.len()) && leaves.iter().all(|q| *q >= number::int(0) && *q <= number::int(15)));
    let depths: HashSet<usize> =
        (0..tree.len()).filter(|&i| tree.node(i).children.is_empty()).map(|i| tree.depth(i)).collect();
    assert!(depths.len() == 1 && depths.iter().all(|d| (3..=4).contains(d)), "{}: depth {depths:?}", v.code);
    assert!(tree.nodes().iter().all(|n| n.children.is_empty() || (2..=4).contains(&n.children.len())));
    let pruned = wrongs(v, "pruned");
    for m in [Misconception::StrictPruning, Misconception::RightToLeft, Misconception::MinMaxSwapped] {
        assert!(pruned.contains(&m), "{}: {} tells itself apart", v.code, m.name());
    }
    let sets: Vec<String> = part(v, "pruned").wrong.iter().map(|(_, a)| a.show()).collect();
    assert_eq!(sets.iter().collect::<HashSet<_>>().len(), sets.len(), "{}: the wrong pruned sets differ", v.code);
    assert!(wrongs(v, "values").contains(&Misconception::CutBoundAsValue), "{}", v.code);
    // The named node's window is not the one it starts with.
    assert!(part(v, "window").expected.show() != "(-inf, +inf)", "{}", v.code);
}

fn well_posed_mdp(v: &Variant) {
    let mdp = referee::keys::mdp::parse::parse(&v.input).unwrap();
    let k: usize = v.input.lines().next().unwrap().split_whitespace().nth(3).unwrap().parse().unwrap();
    let vk = referee::keys::mdp::value_iteration::value_iteration(&mdp, k).values.pop().unwrap();
    for (s, qs) in q_values(&mdp, &vk).iter().enumerate() {
        if let Some(best) = qs.iter().max() {
            assert_eq!(
                qs.iter().filter(|q| *q == best).count(),
                1,
                "{}: state {} has one greedy action",
                v.code,
                mdp.states[s].name
            );
        }
    }
    for p in &v.parts {
        if let Answer::Numbers(values) = &p.expected {
            for (_, q) in values {
                assert!(
                    q.denom() <= &160.into() && q.numer().magnitude() <= &16000u32.into(),
                    "{}: {} is small",
                    v.code,
                    number::fraction(q)
                );
            }
        }
    }
    let vk_wrongs = wrongs(v, "vk");
    assert!(
        vk_wrongs.contains(&Misconception::GaussSeidel) && vk_wrongs.contains(&Misconception::DiscountOnReward),
        "{}",
        v.code
    );
}

fn well_posed_csp(v: &Variant) {
    let problem = referee::keys::csp::parse::parse(&v.input).unwrap();
    let (mut state, _) = State::initial(&problem);
    for &(var, value) in &problem.assignment {
        assert!(state.assign(&problem, var, value).emptied.is_empty(), "{}: no domain emptied", v.code);
    }
    let tied = most_constrained(&state);
    assert!(tied.len() >= 2, "{}: MRV ties, so the degree decides", v.code);
    let most = tied.iter().map(|&x| degree(&problem, &state, x)).max().unwrap();
    assert_eq!(
        tied.iter().filter(|&&x| degree(&problem, &state, x) == most).count(),
        1,
        "{}: the degree breaks the tie",
        v.code
    );
    assert_ne!(next_variable(&problem, &state), tied.first().copied(), "{}: not the alphabetically first", v.code);
    assert!(wrongs(v, "domains").contains(&Misconception::ForwardCheckingSomeNeighbours), "{}", v.code);
}

fn well_posed_hillclimb(v: &Variant) {
    let m = referee::keys::hillclimb::matrix::parse(&v.input, referee::keys::hillclimb::matrix::Notation::Csv).unwrap();
    let tour =
        referee::keys::hillclimb::tour::parse(v.input.lines().next().unwrap().rsplit(' ').next().unwrap(), &m).unwrap();
    let climb = referee::keys::hillclimb::climb::climb(&m, &tour, false);
    let moves: Vec<_> = climb.steps.iter().filter(|s| s.next.is_some()).collect();
    assert!(moves.len() >= 2, "{}: at least two moves", v.code);
    for s in moves {
        let best = &s.neighbours[s.next.unwrap()].length;
        assert_eq!(
            s.neighbours.iter().filter(|n| &n.length == best).count(),
            1,
            "{}: no tie for the best neighbour",
            v.code
        );
    }
    assert_eq!(wrongs(v, "climb"), [Misconception::FirstImprovement], "{}", v.code);
}

fn check(v: &Variant) {
    agrees_with_the_solvers(v);
    match v.kind {
        Kind::Alphabeta | Kind::Expectimax => well_posed_tree(v),
        Kind::Mdp => well_posed_mdp(v),
        Kind::Csp => well_posed_csp(v),
        Kind::Hillclimb => well_posed_hillclimb(v),
    }
    for p in &v.parts {
        assert!(
            p.wrong.iter().all(|(_, a)| *a != p.expected),
            "{}: a wrong method that gives the right answer is not listed",
            v.code
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]
    #[test]
    fn every_variant_agrees_with_the_solvers_and_is_well_posed(seed in any::<u64>(), id in "[a-z][a-z0-9]{0,9}") {
        for kind in Kind::ALL {
            let v = variant(seed, &id, kind);
            check(&v);
            prop_assert_eq!(variant(seed, &id, kind).code, v.code, "a pure function");
        }
    }
}

/// Runs a key command on `input` (stdin) and returns what it printed.
fn key_command(args: &[&str], input: &str) -> String {
    let out = Command::cargo_bin("referee").unwrap().args(args).write_stdin(input).output().unwrap();
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn the_key_commands_print_the_variants_answers() {
    let ab = variant(7, "alice", Kind::Alphabeta);
    let printed = key_command(&["tree", "-"], &ab.input);
    let value = part(&ab, "value").expected.show();
    assert!(printed.contains(&format!("Root value: alpha-beta {value}, minimax {value} (they agree)")), "{printed}");
    let Answer::Label(best) = &part(&ab, "move").expected else { panic!() };
    assert!(printed.contains(&format!("({best}), worth {value}")), "{printed}");
    let ex = variant(7, "alice", Kind::Expectimax);
    let printed = key_command(&["tree", "-"], &ex.input);
    let Answer::Numbers(chance) = &part(&ex, "chance").expected else { panic!() };
    for (name, q) in chance {
        assert!(
            printed.lines().any(|l| l.starts_with(name.as_str()) && l.contains(&number::fraction(q))),
            "{name}: {printed}"
        );
    }
    let mdp = variant(7, "alice", Kind::Mdp);
    let k = mdp.input.lines().next().unwrap().split_whitespace().nth(3).unwrap().to_string();
    let printed = key_command(&["mdp", "-", "--iterations", &k], &mdp.input);
    let Answer::Numbers(vk) = &part(&mdp, "vk").expected else { panic!() };
    let table: Vec<&str> = printed.lines().skip_while(|l| !l.starts_with("Value iteration from V0 = 0")).collect();
    for (name, q) in vk {
        let row = table.iter().find(|l| l.starts_with(&format!("{name} "))).unwrap();
        assert!(
            row.split_whitespace()
                .any(|cell| cell == number::fraction(q) || cell == referee::keys::mdp::report::show(q)),
            "{row}"
        );
    }
    let csp = variant(7, "alice", Kind::Csp);
    let printed = key_command(&["csp", "-"], &csp.input);
    let Answer::Domains(domains) = &part(&csp, "domains").expected else { panic!() };
    for (name, values) in domains {
        let row = printed.lines().find(|l| l.starts_with(&format!("{name} "))).unwrap();
        assert!(row.contains(&referee::keys::csp::report::set(values)), "{row}");
    }
    let hc = variant(7, "alice", Kind::Hillclimb);
    let tour = hc.input.lines().next().unwrap().rsplit(' ').next().unwrap().to_string();
    let printed = key_command(&["hillclimb", "-", "--tour", &tour], &hc.input);
    let Answer::Steps(steps) = &part(&hc, "climb").expected else { panic!() };
    let (last, length) = steps.last().unwrap();
    assert!(
        printed.contains(&format!("Final state: {}, length {}", last.join("-"), number::fraction(length))),
        "{printed}"
    );
}

#[test]
fn a_class_of_1500_gets_1500_different_variants_of_every_kind() {
    let ids: Vec<String> = (0..1500).map(|i| format!("student{i:04}")).collect();
    let codes: Vec<Vec<String>> = std::thread::scope(|scope| {
        let handles: Vec<_> = Kind::ALL
            .iter()
            .map(|&kind| {
                let ids = &ids;
                scope.spawn(move || ids.iter().map(|id| variant(2024, id, kind).code).collect::<Vec<_>>())
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    for (kind, codes) in Kind::ALL.iter().zip(&codes) {
        let distinct = codes.iter().collect::<HashSet<_>>().len();
        eprintln!("{}: {distinct} distinct variants for 1500 students", kind.name());
        assert_eq!(distinct, 1500, "{}", kind.name());
    }
    let _ = ex_tree::letters(0);
}
