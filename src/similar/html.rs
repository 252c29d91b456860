//! `report.html`: one offline file (no script, no request) with the distribution of similarities, the clusters,
//! the listed pairs, each of the first pairs side by side with its shared fragments highlighted and linked
//! (file and line numbers shown), and every student's row. It says "similar", never more.

use std::fmt::Write as _;

use super::analysis::{Analysis, Pair};
use super::output::status;
use crate::harness::render::html::escape::text;

/// Pairs shown side by side (the rest are in the table and in `pairs.csv`).
pub const DETAILED: usize = 50;

const STYLE: &str = "body{font-family:system-ui,sans-serif;margin:1.5em;color:#222}table{border-collapse:collapse}\
td,th{border:1px solid #ccc;padding:2px 6px;text-align:left}.bar{background:#4a7;height:1em;display:inline-block}\
.sides{display:grid;grid-template-columns:1fr 1fr;gap:1em}pre{margin:0;font-size:12px;line-height:1.35}\
.file{border:1px solid #ddd;margin:.4em 0;overflow-x:auto}.file h4{margin:0;padding:2px 6px;background:#eee}\
.ln{color:#999;display:inline-block;width:3.5em;text-align:right;margin-right:.6em;user-select:none}\
.f0{background:#ffe08a}.f1{background:#b9e3ff}.f2{background:#c8f7c5}.f3{background:#ffc9de}.f4{background:#e0d4ff}\
.f5{background:#ffd8b0}a.frag{color:inherit;text-decoration:none}.note{color:#555}";

/// The whole page.
pub fn render(analysis: &Analysis, title: &str) -> String {
    let mut page = String::new();
    let n = analysis.handins.len();
    let p = &analysis.params;
    let _ = write!(
        page,
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>{}</title><style>{STYLE}</style></head><body>",
        text(title)
    );
    let _ = write!(page, "<h1>{}</h1>", text(title));
    let _ = write!(
        page,
        "<p class=\"note\">Similar is not copied: this page shows what the hand-ins have in common and where; \
         whether that means anything is the TA's judgment (shared template code, a common textbook algorithm and \
         short programs all look alike).</p>"
    );
    let _ = write!(
        page,
        "<h2>Parameters</h2><table><tr><th>hand-ins</th><td>{n}</td></tr><tr><th>k (tokens per k-gram)</th><td>{}</td></tr>\
         <tr><th>window</th><td>{}</td></tr><tr><th>shared runs always found from</th><td>{} tokens</td></tr>\
         <tr><th>floor (pairs listed from)</th><td>{:.2}</td></tr><tr><th>clusters link pairs from</th><td>{:.2}</td></tr>\
         <tr><th>template fingerprints removed</th><td>{}</td></tr><tr><th>common fingerprints removed</th><td>{} \
         (held by more than {} hand-ins)</td></tr></table>",
        p.k,
        p.window,
        p.guaranteed(),
        p.floor,
        p.cluster,
        analysis.template_removed,
        analysis.common_removed,
        analysis.common_limit
    );
    distribution(&mut page, analysis);
    clusters(&mut page, analysis);
    pairs_table(&mut page, analysis);
    for (rank, pair) in analysis.pairs.iter().enumerate().take(DETAILED) {
        side_by_side(&mut page, analysis, rank, pair);
    }
    students(&mut page, analysis);
    page.push_str("</body></html>\n");
    page
}

fn distribution(page: &mut String, analysis: &Analysis) {
    let _ = write!(page, "<h2>Distribution</h2><table><tr><th>similarity</th><th>pairs</th><th></th></tr>");
    let max = analysis.histogram.iter().copied().max().unwrap_or(1).max(1) as f64;
    for (i, count) in analysis.histogram.iter().enumerate() {
        // Log scale: the few high pairs stay visible beside the many low ones.
        let width = if *count == 0 { 0.0 } else { 1.0 + 300.0 * (*count as f64).ln_1p() / max.ln_1p() };
        let _ = write!(
            page,
            "<tr><td>{:.1} to {:.1}</td><td>{count}</td><td><span class=\"bar\" style=\"width:{width:.0}px\"></span></td></tr>",
            i as f64 / 10.0,
            (i + 1) as f64 / 10.0
        );
    }
    page.push_str("</table>");
}

fn clusters(page: &mut String, analysis: &Analysis) {
    let _ = write!(page, "<h2>Clusters</h2>");
    if analysis.clusters.is_empty() {
        let _ = write!(page, "<p>No students linked by a similarity of {:.2} or more.</p>", analysis.params.cluster);
        return;
    }
    page.push_str("<ol>");
    for members in &analysis.clusters {
        let ids: Vec<String> = members.iter().map(|m| text(&analysis.handins[*m].id)).collect();
        let _ = write!(page, "<li>{} students: {}</li>", members.len(), ids.join(", "));
    }
    page.push_str("</ol>");
}

fn pairs_table(page: &mut String, analysis: &Analysis) {
    let _ = write!(page, "<h2>Pairs</h2>");
    if analysis.pairs.is_empty() {
        let _ = write!(page, "<p>No pair at or above the floor of {:.2}.</p>", analysis.params.floor);
        return;
    }
    page.push_str(
        "<table><tr><th>#</th><th>a</th><th>b</th><th>similarity</th><th>longest (tokens)</th><th>shared</th></tr>",
    );
    for (rank, p) in analysis.pairs.iter().enumerate() {
        let label =
            if rank < DETAILED { format!("<a href=\"#pair{rank}\">{}</a>", rank + 1) } else { (rank + 1).to_string() };
        let _ = write!(
            page,
            "<tr><td>{label}</td><td>{}</td><td>{}</td><td>{:.3}</td><td>{}</td><td>{}</td></tr>",
            text(&analysis.handins[p.a].id),
            text(&analysis.handins[p.b].id),
            p.similarity,
            p.longest,
            p.shared
        );
    }
    page.push_str("</table>");
}

/// One side's lines per file: which fragment (if any) each line belongs to.
fn marks(analysis: &Analysis, who: usize, starts: &[(u32, u32)]) -> Vec<Vec<Option<usize>>> {
    let h = &analysis.handins[who];
    let prep = &analysis.prepared[who];
    let mut out: Vec<Vec<Option<usize>>> = h.files.iter().map(|f| vec![None; f.text.lines().count() + 1]).collect();
    for (frag, &(start, len)) in starts.iter().enumerate() {
        let (s, e) = (start as usize, (start + len).saturating_sub(1) as usize);
        let (Some(&file), Some(&first), Some(&last)) = (prep.files.get(s), prep.lines.get(s), prep.lines.get(e)) else {
            continue;
        };
        if let Some(lines) = out.get_mut(file as usize) {
            for line in first..=last {
                if let Some(slot) = lines.get_mut(line as usize) {
                    slot.get_or_insert(frag);
                }
            }
        }
    }
    out
}

fn side_by_side(page: &mut String, analysis: &Analysis, rank: usize, pair: &Pair) {
    let (a, b) = (&analysis.handins[pair.a], &analysis.handins[pair.b]);
    let _ = write!(
        page,
        "<h3 id=\"pair{rank}\">#{} {} and {}: similarity {:.3}, longest shared fragment {} tokens, {} fragments</h3><div class=\"sides\">",
        rank + 1,
        text(&a.id),
        text(&b.id),
        pair.similarity,
        pair.longest,
        pair.fragments.len()
    );
    let fa: Vec<(u32, u32)> = pair.fragments.iter().map(|f| (f.a, f.len)).collect();
    let fb: Vec<(u32, u32)> = pair.fragments.iter().map(|f| (f.b, f.len)).collect();
    for (side, who, starts, other) in [("a", pair.a, &fa, "b"), ("b", pair.b, &fb, "a")] {
        let h = &analysis.handins[who];
        let marked = marks(analysis, who, starts);
        page.push_str("<div>");
        let _ = write!(page, "<h4>{}</h4>", text(&h.id));
        for (f, file) in h.files.iter().enumerate() {
            let Some(lines) = marked.get(f) else { continue };
            if !lines.iter().any(Option::is_some) {
                continue;
            }
            let _ = write!(page, "<div class=\"file\"><h4>{}</h4><pre>", text(&file.path));
            let mut anchored = vec![false; starts.len()];
            for (i, line) in file.text.lines().enumerate() {
                let number = i + 1;
                let body = text(line);
                match lines.get(number).copied().flatten() {
                    Some(frag) => {
                        let anchor = if anchored[frag] {
                            String::new()
                        } else {
                            anchored[frag] = true;
                            format!(" id=\"p{rank}{side}{frag}\"")
                        };
                        let _ = writeln!(
                            page,
                            "<a class=\"frag f{}\"{anchor} href=\"#p{rank}{other}{frag}\" title=\"fragment {}\"><span class=\"ln\">{number}</span>{body}</a>",
                            frag % 6,
                            frag + 1
                        );
                    }
                    None => {
                        let _ = writeln!(page, "<span class=\"ln\">{number}</span>{body}");
                    }
                }
            }
            page.push_str("</pre></div>");
        }
        page.push_str("</div>");
    }
    page.push_str("</div>");
}

fn students(page: &mut String, analysis: &Analysis) {
    page.push_str(
        "<h2>Students</h2><table><tr><th>id</th><th>files</th><th>tokens</th><th>status</th><th>notes</th></tr>",
    );
    for (i, h) in analysis.handins.iter().enumerate() {
        let _ = write!(
            page,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            text(&h.id),
            h.files.len(),
            analysis.prepared[i].syms.len(),
            text(&status(analysis, i)),
            text(&h.notes.join("; "))
        );
    }
    page.push_str("</table>");
}
