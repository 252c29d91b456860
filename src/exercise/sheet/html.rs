//! A student's sheet as one self-contained HTML page: inline CSS and SVG, no script, nothing fetched, every text
//! escaped. It prints well: each problem starts on a new page, figures and tables are never split, and every
//! question has an empty box to work in.

use std::fmt::Write as _;

use super::{preamble, Block, Student};
use crate::harness::render::html::escape::text as escape;

const STYLE: &str = "\
body { font-family: Georgia, 'Times New Roman', serif; color: #111; background: white; margin: 0; }
main { max-width: 52rem; margin: 0 auto; padding: 1.5rem; line-height: 1.45; }
h1 { font-size: 1.6rem; margin-bottom: 0.2rem; }
h2 { font-size: 1.3rem; border-bottom: 1px solid #999; padding-bottom: 0.2rem; margin-top: 2.2rem; }
h3 { font-size: 1.05rem; margin-bottom: 0.3rem; }
code { font-family: 'DejaVu Sans Mono', Menlo, monospace; font-size: 0.9em; background: #f2f2f2; padding: 0 0.2em; }
.variant { color: #555; font-size: 0.9rem; }
figure { margin: 1rem 0; text-align: center; break-inside: avoid; }
figure svg { max-width: 100%; height: auto; }
figcaption { font-size: 0.85rem; color: #555; }
table { border-collapse: collapse; margin: 0.5rem 0; break-inside: avoid; }
th, td { border: 1px solid #999; padding: 0.2rem 0.6rem; text-align: center; }
ul.outline, ul.outline ul { list-style: none; padding-left: 1.2rem; margin: 0; }
ul.outline { font-size: 0.9rem; }
ul.outline > li > ul { columns: 12rem; column-gap: 2rem; }
ul.outline > li > ul > li { break-inside: avoid-column; }
ol.parts > li { margin-bottom: 1rem; break-inside: avoid; }
.how { font-size: 0.9rem; color: #444; margin: 0.2rem 0; }
.box { border: 1px solid #bbb; min-height: 3.5rem; border-radius: 3px; }
@media (max-width: 40rem) { main { padding: 0.8rem; } ul.outline > li > ul { columns: auto; } }
@media print {
  @page { margin: 14mm; }
  main { max-width: none; padding: 0; }
  section.problem + section.problem { break-before: page; }
  .box { min-height: 5rem; }
}
";

fn block(out: &mut String, block: &Block) {
    match block {
        Block::Table { caption, headers, rows } => {
            let _ = write!(out, "<table>\n<caption>{}</caption>\n<thead><tr>", escape(caption));
            for h in headers {
                let _ = write!(out, "<th scope=\"col\">{}</th>", escape(h));
            }
            out.push_str("</tr></thead>\n<tbody>\n");
            for row in rows {
                out.push_str("<tr>");
                for (i, cell) in row.iter().enumerate() {
                    let tag = if i == 0 && headers.first().is_some_and(String::is_empty) { "th" } else { "td" };
                    let _ = write!(out, "<{tag}>{}</{tag}>", escape(cell));
                }
                out.push_str("</tr>\n");
            }
            out.push_str("</tbody>\n</table>\n");
        }
        Block::List { caption, items } => {
            let _ = writeln!(out, "<p>{}</p>\n<ul>", escape(caption));
            for item in items {
                let _ = writeln!(out, "<li><code>{}</code></li>", escape(item));
            }
            out.push_str("</ul>\n");
        }
        Block::Outline { caption, lines } => {
            let _ = write!(out, "<p>{}</p>\n<ul class=\"outline\">", escape(caption));
            let mut depth = 0;
            for (i, (d, text)) in lines.iter().enumerate() {
                if i > 0 {
                    if *d > depth {
                        out.push_str("\n<ul>");
                    } else {
                        out.push_str("</li>");
                        for _ in *d..depth {
                            out.push_str("</ul></li>");
                        }
                    }
                }
                depth = *d;
                let _ = write!(out, "\n<li>{}", escape(text));
            }
            out.push_str("</li>");
            for _ in 0..depth {
                out.push_str("</ul></li>");
            }
            out.push_str("\n</ul>\n");
        }
    }
}

/// The sheet of `student` as a whole HTML document.
pub fn render(student: &Student<'_>) -> String {
    let id = escape(student.id);
    let mut out = format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" \
         content=\"width=device-width, initial-scale=1\">\n<title>Written problems: {id}</title>\n<style>\n{STYLE}</style>\n\
         </head>\n<body>\n<main>\n<header>\n<h1>Written problems</h1>\n<p class=\"who\">Student: <strong>{id}</strong></p>\n\
         <p>{}</p>\n</header>\n",
        escape(&preamble(student))
    );
    for (p, variant) in student.variants.iter().enumerate() {
        let sheet = &variant.sheet;
        let kind = variant.kind.name();
        let _ = writeln!(
            out,
            "<section class=\"problem\" id=\"{kind}\">\n<h2>Problem {}. {}</h2>\n<p class=\"variant\">Variant \
             <code>{}</code>; answers go under <code>[{kind}]</code> in the answer file.</p>",
            p + 1,
            escape(variant.kind.title()),
            escape(&variant.code)
        );
        for paragraph in &sheet.intro {
            let _ = writeln!(out, "<p>{}</p>", escape(paragraph));
        }
        if let Some(figure) = &sheet.figure {
            let _ =
                writeln!(out, "<figure>\n{}<figcaption>{}</figcaption>\n</figure>", figure.svg, escape(&figure.alt));
        }
        for b in &sheet.blocks {
            block(&mut out, b);
        }
        out.push_str("<h3>Conventions</h3>\n<ul>\n");
        for c in &sheet.conventions {
            let _ = writeln!(out, "<li>{}</li>", escape(c));
        }
        out.push_str("</ul>\n<h3>Questions</h3>\n<ol class=\"parts\">\n");
        for part in &variant.parts {
            let _ = writeln!(
                out,
                "<li><p>{}</p><p class=\"how\">Answer as <code>{} = ...</code>: {}.</p><div class=\"box\"></div></li>",
                escape(&part.prompt),
                part.spec.key,
                escape(part.spec.form.example())
            );
        }
        out.push_str("</ol>\n</section>\n");
    }
    out.push_str("</main>\n</body>\n</html>\n");
    out
}
