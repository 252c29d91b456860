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
    let ops = ["+", "-", "*", "%", "/"];
    for _ in 0..n {
        let pick = |rng: &mut Rng, vars: &Vec<String>| vars[rng.below(vars.len())].clone();
        let expr = |rng: &mut Rng, vars: &Vec<String>| {
            let a = pick(rng, vars);
            match rng.below(4) {
                0 => format!("{a} {} {}", ops[rng.below(ops.len())], 1 + rng.below(9)),
                1 => format!("{a} {} {}", ops[rng.below(3)], pick(rng, vars)),
                2 => format!("({a} + {}) * {}", pick(rng, vars), 2 + rng.below(5)),
                _ => format!("{a}"),
            }
        };
        match rng.below(if nesting >= 2 { 4 } else { 7 }) {
            0 | 1 => {
                let v = name(rng);
                let e = expr(rng, vars);
                let decl = if lang == Lang::Java { "int " } else { "" };
                out.push(format!("{pad}{decl}{v} = {e}{end}"));
                vars.push(v);
            }
            2 => {
                let v = pick(rng, vars);
                let e = expr(rng, vars);
                let op = ["=", "+=", "-="][rng.below(3)];
                out.push(format!("{pad}{v} {op} {e}{end}"));
            }
            3 if methods.len() > 1 => {
                let v = pick(rng, vars);
                let callee = &methods[rng.below(methods.len() - 1)];
                let a = pick(rng, vars);
                out.push(format!("{pad}{v} = {callee}({a}){end}"));
            }
            3 => {
                let v = pick(rng, vars);
                out.push(
                    format!("{pad}{v} = Math.max({v}, {}){end}", pick(rng, vars))
                        .replace("Math.max", if lang == Lang::Java { "Math.max" } else { "max" }),
                );
            }
            4 => {
                let (a, b) = (pick(rng, vars), pick(rng, vars));
                let cmp = ["<", ">", "<=", ">=", "=="][rng.below(5)];
                let inner = 1 + rng.below(3);
                match lang {
                    Lang::Java => out.push(format!("{pad}if ({a} {cmp} {b}) {{")),
                    Lang::Python => out.push(format!("{pad}if {a} {cmp} {b}:")),
                }
                let mut scoped = vars.clone();
                block(out, lang, level + 1, inner, &mut scoped, methods, rng, nesting + 1);
                if rng.below(2) == 0 {
                    match lang {
                        Lang::Java => out.push(format!("{pad}}} else {{")),
                        Lang::Python => out.push(format!("{pad}else:")),
                    }
                    let mut scoped = vars.clone();
                    block(out, lang, level + 1, inner, &mut scoped, methods, rng, nesting + 1);
                }
                if lang == Lang::Java {
                    out.push(format!("{pad}}}"));
                }
            }
            5 => {
                let i = name(rng);
                let hi = pick(rng, vars);
                match lang {
                    Lang::Java => out.push(format!("{pad}for (int {i} = 0; {i} < {hi}; {i}++) {{")),
                    Lang::Python => out.push(format!("{pad}for {i} in range({hi}):")),
                }
                let mut scoped = vars.clone();
                scoped.push(i);
                block(out, lang, level + 1, 1 + rng.below(3), &mut scoped, methods, rng, nesting + 1);
                if lang == Lang::Java {
                    out.push(format!("{pad}}}"));
                }
            }
            _ => {
                let (a, b) = (pick(rng, vars), pick(rng, vars));
                match lang {
                    Lang::Java => out.push(format!("{pad}while ({a} > {b}) {{")),
                    Lang::Python => out.push(format!("{pad}while {a} > {b}:")),
                }
                out.push(format!("{pad}    {a} = {a} / 2 - 1{end}"));
                if lang == Lang::Java {
                    out.push(format!("{pad}}}"));
                }
            }
        }
    }
}
