//! Programs made up from scratch: each one a class of methods with declarations, arithmetic, branches and loops
//! over names of its own, so two generated programs are independent as two students' are (if anything more
//! different). The synthetic class of the benchmark and the independent students of the quality measurement.

use crate::rng::Rng;
use crate::similar::lang::Lang;

const WORDS: &[&str] = &[
    "stone", "move", "best", "score", "depth", "alpha", "beta", "value", "count", "board", "child", "turn", "limit",
    "total", "left", "right", "index", "step", "row", "col", "piece", "seed", "pit", "store", "weight", "gain",
];

fn name(rng: &mut Rng) -> String {
    let a = WORDS[rng.below(WORDS.len())];
    let b = WORDS[rng.below(WORDS.len())];
    let mut b = b.to_string();
    if let Some(first) = b.get(..1) {
        b = first.to_uppercase() + b.get(1..).unwrap_or("");
    }
    format!("{a}{b}{}", rng.below(10))
}

/// A program of about `lines` lines in `lang`.
pub fn program(lang: Lang, lines: usize, rng: &mut Rng) -> String {
    let mut out: Vec<String> = Vec::new();
    let class = format!("Solver{}", rng.below(1000));
    match lang {
        Lang::Java => out.push(format!("public class {class} {{")),
        Lang::Python => out.push("import sys".into()),
    }
    let mut methods = Vec::new();
    while out.len() < lines {
        let m = name(rng);
        methods.push(m.clone());
        method(&mut out, lang, &m, &methods, rng);
    }
    if lang == Lang::Java {
        out.push("}".into());
    }
    out.join("\n") + "\n"
}

fn method(out: &mut Vec<String>, lang: Lang, m: &str, methods: &[String], rng: &mut Rng) {
    let params: Vec<String> = (0..1 + rng.below(3)).map(|_| name(rng)).collect();
    match lang {
        Lang::Java => {
            let list: Vec<String> = params.iter().map(|p| format!("int {p}")).collect();
            out.push(format!("    static int {m}({}) {{", list.join(", ")));
        }
        Lang::Python => out.push(format!("def {m}({}):", params.join(", "))),
    }
    let mut vars = params.clone();
    let body = 6 + rng.below(14);
    block(out, lang, 2, body, &mut vars, methods, rng, 0);
    let v = &vars[rng.below(vars.len())];
    match lang {
        Lang::Java => {
            out.push(format!("        return {v};"));
            out.push("    }".into());
        }
        Lang::Python => {
            out.push(format!("    return {v}"));
            out.push(String::new());
        }
    }
}

/// A random expression over `vars` and `methods`, nested at most `depth` deep.
fn expr(lang: Lang, vars: &[String], methods: &[String], depth: usize, rng: &mut Rng) -> String {
    let pick = |rng: &mut Rng| vars[rng.below(vars.len())].clone();
    if depth == 0 || rng.below(3) == 0 {
        return match rng.below(5) {
            0 => (rng.below(100)).to_string(),
            1 => format!("{}[{}]", pick(rng), rng.below(8)),
            _ => pick(rng),
        };
    }
    let ops = ["+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^"];
    match rng.below(7) {
        0..=2 => format!(
            "{} {} {}",
            expr(lang, vars, methods, depth - 1, rng),
            ops[rng.below(ops.len())],
            expr(lang, vars, methods, depth - 1, rng)
        ),
        3 => format!("({})", expr(lang, vars, methods, depth - 1, rng)),
        4 if !methods.is_empty() => {
            let callee = &methods[rng.below(methods.len())];
            let args: Vec<String> = (0..1 + rng.below(3)).map(|_| expr(lang, vars, methods, depth - 1, rng)).collect();
            format!("{callee}({})", args.join(", "))
        }
        5 => {
            let (c, a, b) = (
                cond(lang, vars, methods, rng),
                expr(lang, vars, methods, depth - 1, rng),
                expr(lang, vars, methods, depth - 1, rng),
            );
            match lang {
                Lang::Java => format!("({c}) ? {a} : {b}"),
                Lang::Python => format!("({a} if {c} else {b})"),
            }
        }
        _ => match lang {
            Lang::Java => format!("Math.abs({})", expr(lang, vars, methods, depth - 1, rng)),
            Lang::Python => format!("abs({})", expr(lang, vars, methods, depth - 1, rng)),
        },
    }
}

/// A random condition.
fn cond(lang: Lang, vars: &[String], methods: &[String], rng: &mut Rng) -> String {
    let cmp = ["<", ">", "<=", ">=", "==", "!="][rng.below(6)];
    let one = format!("{} {cmp} {}", expr(lang, vars, methods, 1, rng), expr(lang, vars, methods, 1, rng));
    if rng.below(3) == 0 {
        let join = match lang {
            Lang::Java => ["&&", "||"][rng.below(2)],
            Lang::Python => ["and", "or"][rng.below(2)],
        };
        let v = &vars[rng.below(vars.len())];
        format!("{one} {join} {v} != {}", rng.below(10))
    } else {
        one
    }
}

#[expect(clippy::too_many_arguments, reason = "a recursive generator's state; a struct would only rename it")]
fn block(
    out: &mut Vec<String>,
    lang: Lang,
    level: usize,
    n: usize,
    vars: &mut Vec<String>,
    methods: &[String],
    rng: &mut Rng,
    nesting: usize,
) {
    let pad = match lang {
        Lang::Java => "    ".repeat(level),
        Lang::Python => "    ".repeat(level - 1),
    };
    let end = if lang == Lang::Java { ";" } else { "" };
    let callable = &methods[..methods.len().saturating_sub(1)];
    for _ in 0..n {
        let pick = |rng: &mut Rng, vars: &Vec<String>| vars[rng.below(vars.len())].clone();
        match rng.below(if nesting >= 2 { 5 } else { 9 }) {
            0 | 1 => {
                let v = name(rng);
                let e = expr(lang, vars, callable, 3, rng);
                let decl = if lang == Lang::Java { ["int ", "long ", "double ", "var "][rng.below(4)] } else { "" };
                out.push(format!("{pad}{decl}{v} = {e}{end}"));
                vars.push(v);
            }
            2 => {
                let v = pick(rng, vars);
                let e = expr(lang, vars, callable, 3, rng);
                let op = ["=", "+=", "-=", "*=", "|="][rng.below(5)];
                out.push(format!("{pad}{v} {op} {e}{end}"));
            }
            3 => {
                let e = expr(lang, vars, callable, 2, rng);
                match lang {
                    Lang::Java => out.push(format!("{pad}System.out.println(\"{}: \" + {e});", name(rng))),
                    Lang::Python => out.push(format!("{pad}print(\"{}:\", {e})", name(rng))),
                }
            }
            4 => {
                let c = cond(lang, vars, callable, rng);
                let e = expr(lang, vars, callable, 2, rng);
                match lang {
                    Lang::Java => out.push(format!("{pad}if ({c}) return {e};")),
                    Lang::Python => {
                        out.push(format!("{pad}if {c}:"));
                        out.push(format!("{pad}    return {e}"));
                    }
                }
            }
            5 | 6 => {
                let c = cond(lang, vars, callable, rng);
                let inner = 1 + rng.below(3);
                match lang {
                    Lang::Java => out.push(format!("{pad}if ({c}) {{")),
                    Lang::Python => out.push(format!("{pad}if {c}:")),
                }
                let mut scoped = vars.clone();
                block(out, lang, level + 1, inner, &mut scoped, methods, rng, nesting + 1);
                if rng.below(2) == 0 {
                    match lang {
                        Lang::Java => out.push(format!("{pad}}} else {{")),
                        Lang::Python => out.push(format!("{pad}else:")),
                    }
                    let mut scoped = vars.clone();
                    block(out, lang, level + 1, 1 + rng.below(3), &mut scoped, methods, rng, nesting + 1);
                }
                if lang == Lang::Java {
                    out.push(format!("{pad}}}"));
                }
            }
            7 => {
                let i = name(rng);
                let hi = expr(lang, vars, callable, 1, rng);
                let lo = rng.below(3);
                match lang {
                    Lang::Java => out.push(format!("{pad}for (int {i} = {lo}; {i} < {hi}; {i}++) {{")),
                    Lang::Python => out.push(format!("{pad}for {i} in range({lo}, {hi}):")),
                }
                let mut scoped = vars.clone();
                scoped.push(i);
                block(out, lang, level + 1, 1 + rng.below(3), &mut scoped, methods, rng, nesting + 1);
                if lang == Lang::Java {
                    out.push(format!("{pad}}}"));
                }
            }
            _ => {
                let c = cond(lang, vars, callable, rng);
                let a = pick(rng, vars);
                match lang {
                    Lang::Java => out.push(format!("{pad}while ({c}) {{")),
                    Lang::Python => out.push(format!("{pad}while {c}:")),
                }
                let e = expr(lang, vars, callable, 2, rng);
                out.push(format!("{pad}    {a} = {e}{end}"));
                if lang == Lang::Java {
                    out.push(format!("{pad}}}"));
                }
            }
        }
    }
}
