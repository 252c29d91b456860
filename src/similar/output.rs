//! The result files: `pairs.csv` (most similar first), `clusters.csv` and `students.csv` (every student a row,
//! "nothing to compare" where that is the truth).

use std::io::{self, Write};

use super::analysis::Analysis;

/// What a student's row says when nothing of the hand-in could be compared.
pub const NOTHING: &str = "nothing to compare";

/// `pairs.csv`: `a,b,similarity,longest,shared`, the listed pairs most similar first.
///
/// # Errors
/// When writing fails.
pub fn pairs_csv(analysis: &Analysis, out: impl Write) -> io::Result<()> {
    let mut csv = csv::Writer::from_writer(out);
    csv.write_record(["a", "b", "similarity", "longest", "shared"])?;
    for p in &analysis.pairs {
        csv.write_record([
            analysis.handins[p.a].id.as_str(),
            analysis.handins[p.b].id.as_str(),
            &format!("{:.3}", p.similarity),
            &p.longest.to_string(),
            &p.shared.to_string(),
        ])?;
    }
    csv.flush()
}

/// `clusters.csv`: `cluster,size,id,top` one row per member (`top`: the member's highest similarity in the cluster).
///
/// # Errors
/// When writing fails.
pub fn clusters_csv(analysis: &Analysis, out: impl Write) -> io::Result<()> {
    let mut csv = csv::Writer::from_writer(out);
    csv.write_record(["cluster", "size", "id", "top"])?;
    for (n, members) in analysis.clusters.iter().enumerate() {
        for &m in members {
            let top = analysis
                .pairs
                .iter()
                .filter(|p| (p.a == m || p.b == m) && members.contains(&p.a) && members.contains(&p.b))
                .map(|p| p.similarity)
                .fold(0.0, f64::max);
            csv.write_record([
                &(n + 1).to_string(),
                &members.len().to_string(),
                analysis.handins[m].id.as_str(),
                &format!("{top:.3}"),
            ])?;
        }
    }
    csv.flush()
}

/// The status line of a student: "nothing to compare" (with why) or the number of files compared.
pub fn status(analysis: &Analysis, i: usize) -> String {
    let h = &analysis.handins[i];
    if analysis.prepared[i].syms.is_empty() {
        if h.files.is_empty() {
            format!("{NOTHING}: no source file")
        } else {
            format!("{NOTHING}: no tokens in its source")
        }
    } else if analysis.kept[i] == 0 {
        format!("{NOTHING}: only template or common code")
    } else {
        "compared".into()
    }
}

/// `students.csv`: `id,files,tokens,fingerprints,top,status,notes`, every student of the class.
///
/// # Errors
/// When writing fails.
pub fn students_csv(analysis: &Analysis, out: impl Write) -> io::Result<()> {
    let mut top = vec![0.0f64; analysis.handins.len()];
    for p in &analysis.pairs {
        top[p.a] = top[p.a].max(p.similarity);
        top[p.b] = top[p.b].max(p.similarity);
    }
    let mut csv = csv::Writer::from_writer(out);
    csv.write_record(["id", "files", "tokens", "fingerprints", "top", "status", "notes"])?;
    for (i, h) in analysis.handins.iter().enumerate() {
        csv.write_record([
            h.id.as_str(),
            &h.files.len().to_string(),
            &analysis.prepared[i].syms.len().to_string(),
            &analysis.kept[i].to_string(),
            &format!("{:.3}", top[i]),
            &status(analysis, i),
            &h.notes.join("; "),
        ])?;
    }
    csv.flush()
}
