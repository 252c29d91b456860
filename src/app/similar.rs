//! `referee similar`: reads the class, compares, writes `pairs.csv`, `clusters.csv`, `students.csv` and
//! `report.html`, and prints a summary. It exits 0 whatever it finds: similarity is evidence for the TA, not a
//! failure of anyone's.

use std::io::Write;
use std::path::Path;

use crate::cli::{exit, SimilarArgs, SimilarLang};
use crate::harness::grade::ids::printable;
use crate::harness::grade::store::write_atomic;
use crate::similar::collect::{collect, template};
use crate::similar::output::{clusters_csv, pairs_csv, students_csv, NOTHING};
use crate::similar::{analyse, html, Lang, LangChoice, Params};

/// Runs `referee similar`.
pub fn run(args: &SimilarArgs, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    let params = match params(args) {
        Ok(params) => params,
        Err(message) => {
            let _ = writeln!(err, "referee similar: {message}");
            return exit::USAGE;
        }
    };
    let choice = match args.lang {
        SimilarLang::Java => LangChoice::Only(Lang::Java),
        SimilarLang::Python => LangChoice::Only(Lang::Python),
        SimilarLang::Auto => LangChoice::Auto,
    };
    let mut skip: Vec<&Path> = vec![args.out.as_path()];
    if let Some(t) = &args.template {
        skip.push(t.as_path());
    }
    let class = match collect(&args.submissions, &skip, choice) {
        Ok(class) => class,
        Err(e) => {
            let _ = writeln!(err, "referee similar: --submissions {}", printable(&e.to_string()));
            return exit::USAGE;
        }
    };
    let template_files = match &args.template {
        Some(path) => match template(path, class.lang) {
            Ok(files) => files,
            Err(e) => {
                let _ = writeln!(err, "referee similar: --template {}: {}", path.display(), printable(&e.to_string()));
                return exit::USAGE;
            }
        },
        None => Vec::new(),
    };
    if args.template.is_some() && template_files.is_empty() {
        let lang = class.lang.map_or("source", Lang::name);
        let _ =
            writeln!(err, "referee similar: --template: no {lang} file in it: nothing of the template can be removed");
        return exit::USAGE;
    }
    let lang = class.lang.map_or("no source", Lang::name);
    for note in &class.notes {
        let _ = writeln!(out, "note: {note}");
    }
    let analysis = analyse(class.handins, &template_files, params);
    let writes: [(&str, Vec<u8>); 4] = [
        ("pairs.csv", csv_bytes(|w| pairs_csv(&analysis, w))),
        ("clusters.csv", csv_bytes(|w| clusters_csv(&analysis, w))),
        ("students.csv", csv_bytes(|w| students_csv(&analysis, w))),
        (
            "report.html",
            html::render(
                &analysis,
                &format!("Similarity: {} ({lang})", printable(&args.submissions.display().to_string())),
            )
            .into_bytes(),
        ),
    ];
    for (name, bytes) in &writes {
        if let Err(e) = write_atomic(&args.out.join(name), bytes) {
            let _ = writeln!(err, "referee similar: cannot write {}: {e}", args.out.join(name).display());
            return exit::INTERNAL;
        }
    }
    let nothing = (0..analysis.handins.len())
        .filter(|i| crate::similar::output::status(&analysis, *i).starts_with(NOTHING))
        .count();
    let _ = writeln!(
        out,
        "compared {} hand-in(s) ({lang}), {} with {NOTHING}; {} pair(s) at or above {:.2}, {} cluster(s) at {:.2}",
        analysis.handins.len(),
        nothing,
        analysis.pairs.len(),
        params.floor,
        analysis.clusters.len(),
        params.cluster
    );
    let _ = writeln!(
        out,
        "removed: {} template fingerprint(s), {} common to more than {} hand-ins (taken for course code)",
        analysis.template_removed, analysis.common_removed, analysis.common_limit
    );
    for p in analysis.pairs.iter().take(5) {
        let _ = writeln!(
            out,
            "  {:<20} {:<20} {:.3}  longest {} tokens",
            analysis.handins[p.a].id, analysis.handins[p.b].id, p.similarity, p.longest
        );
    }
    let _ = writeln!(out, "results in {} (report.html, pairs.csv, clusters.csv, students.csv); similar is not copied: the judgment is yours", args.out.display());
    exit::SUCCESS
}

fn csv_bytes(write: impl FnOnce(&mut Vec<u8>) -> std::io::Result<()>) -> Vec<u8> {
    let mut bytes = Vec::new();
    // Writing into memory cannot fail.
    let _ = write(&mut bytes);
    bytes
}

/// The run's parameters, checked.
fn params(args: &SimilarArgs) -> Result<Params, String> {
    let mut p = Params::default();
    if let Some(k) = args.k {
        if !(2..=200).contains(&k) {
            return Err(format!("--k {k}: must be between 2 and 200"));
        }
        p.k = k;
    }
    if let Some(w) = args.window {
        if !(1..=200).contains(&w) {
            return Err(format!("--window {w}: must be between 1 and 200"));
        }
        p.window = w;
    }
    for (name, value, slot) in [("--floor", args.floor, &mut p.floor), ("--cluster", args.cluster, &mut p.cluster)] {
        if let Some(v) = value {
            if !(0.0..=1.0).contains(&v) {
                return Err(format!("{name} {v}: must be between 0 and 1"));
            }
            *slot = v;
        }
    }
    Ok(p)
}
