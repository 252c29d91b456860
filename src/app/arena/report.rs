//! A tournament's `report.html`: standings, Bradley-Terry ratings drawn with their error bars, the bands, and a
//! cross table of who beat whom, built from the class report's pieces ([`crate::harness::render::html`]).

use std::collections::BTreeMap;
use std::io::{self, Write};

use super::standings::Standing;
use crate::harness::render::html::chart::{intervals, Interval};
use crate::harness::render::html::escape::text;
use crate::harness::render::html::page::{badge, begin, end, head};
use crate::referee::rating::ELO_MEAN;
use crate::referee::record::GameRecord;

/// What the tournament page shows.
pub struct TournamentPage<'a> {
    /// The heading (`Mancala tournament`).
    pub title: &'a str,
    /// The settings line (variant, time per move, seed).
    pub settings: &'a str,
    /// The table, best first.
    pub table: &'a [Standing],
    /// Every game played; seat labels are entrant ids.
    pub games: &'a [GameRecord],
    /// How many games the tournament will have played when it is over (more than `games.len()` while it runs).
    pub planned: usize,
    /// Hand-ins left out, each `id: why` (did not build).
    pub excluded: &'a [String],
    /// A game's saved file as a link relative to the report, by the ids in seat 1 and seat 2.
    pub game_link: &'a dyn Fn(&str, &str) -> String,
    /// A student's leaderboard file as a relative link; `None` for a reference agent.
    pub entrant_link: &'a dyn Fn(&str) -> Option<String>,
}

/// Writes the tournament page.
///
/// # Errors
///
/// Only the writer's errors.
pub fn render(page: &TournamentPage<'_>, out: &mut dyn Write) -> io::Result<()> {
    let lead = if page.games.len() < page.planned {
        format!(
            "{} entrants, {} of {} games played so far (this page is rewritten as games finish); {}.",
            page.table.len(),
            page.games.len(),
            page.planned,
            page.settings
        )
    } else {
        format!("{} entrants, {} games; {}.", page.table.len(), page.games.len(), page.settings)
    };
    let sections = [("standings", "Standings"), ("ratings", "Ratings"), ("bands", "Bands"), ("cross", "Cross table")];
    begin(out, page.title, &lead, &sections)?;
    write_standings(out, page)?;
    write_ratings(out, page.table)?;
    write_bands(out, page.table)?;
    write_cross(out, page)?;
    end(out)
}

fn band_badge(band: &str) -> String {
    match band {
        "top 10%" => badge("s-top-10", band),
        "top 25%" => badge("s-top-25", band),
        "" => String::new(),
        other => badge("s-pending", other),
    }
}

fn write_standings(out: &mut dyn Write, page: &TournamentPage<'_>) -> io::Result<()> {
    writeln!(out, "<section id=\"standings\"><h2>Standings</h2><div class=\"scroll\"><table id=\"standings-table\">")?;
    writeln!(
        out,
        "<caption>Ranked by rating; a forfeit is a game lost to a crash, a timeout or an illegal move.</caption>"
    )?;
    writeln!(out, "{}", head(&["#rank", "agent", "#won", "~drawn", "#lost", "~forfeits", "#rating", "band"]))?;
    writeln!(out, "<tbody>")?;
    for r in page.table {
        let name = match (page.entrant_link)(&r.id) {
            Some(link) => format!("<a href=\"{}\">{}</a>", text(&link), text(&r.id)),
            None => format!("{} <span class=\"note\">(reference)</span>", text(&r.id)),
        };
        writeln!(
            out,
            "<tr><td class=\"num\">{}</td><th scope=\"row\">{name}</th><td class=\"num\">{}</td><td class=\"num opt\">{}</td>\
             <td class=\"num\">{}</td><td class=\"num opt\">{}</td><td class=\"num\">{:.0} ± {:.0}</td><td>{}</td></tr>",
            r.rank,
            r.won,
            r.drawn,
            r.lost,
            r.forfeited,
            r.rating,
            r.error,
            band_badge(&r.band)
        )?;
    }
    writeln!(out, "</tbody></table></div>")?;
    if !page.excluded.is_empty() {
        writeln!(out, "<h3>Not entered</h3><ul id=\"excluded\">")?;
        for e in page.excluded {
            writeln!(out, "<li><code>{}</code></li>", text(e))?;
        }
        writeln!(out, "</ul>")?;
    }
    writeln!(out, "</section>")
}

fn write_ratings(out: &mut dyn Write, table: &[Standing]) -> io::Result<()> {
    let rows: Vec<Interval> =
        table.iter().map(|r| Interval { label: r.id.clone(), value: r.rating, error: r.error }).collect();
    writeln!(out, "<section id=\"ratings\"><h2>Ratings</h2><figure>")?;
    writeln!(out, "{}", intervals("rating-chart", "Bradley-Terry ratings with one standard error", ELO_MEAN, &rows))?;
    writeln!(
        out,
        "<figcaption>Bradley-Terry maximum likelihood (a draw counts half), Elo scale, mean {ELO_MEAN:.0} (the \
         vertical line); each bar is ± one standard error. Overlapping bars mean the games do not tell those two \
         apart.</figcaption></figure></section>"
    )
}

fn write_bands(out: &mut dyn Write, table: &[Standing]) -> io::Result<()> {
    writeln!(out, "<section id=\"bands\"><h2>Bands</h2>")?;
    writeln!(
        out,
        "<p class=\"note\">Students only (reference agents take no place): the top 10% of the students, rounded up \
         and at least one, then the next 15%.</p>"
    )?;
    writeln!(out, "<table id=\"band-table\">{}<tbody>", head(&["band", "#students", "who"]))?;
    for band in ["top 10%", "top 25%"] {
        let who: Vec<&str> = table.iter().filter(|r| r.band == band).map(|r| r.id.as_str()).collect();
        writeln!(
            out,
            "<tr><th scope=\"row\">{}</th><td class=\"num\">{}</td><td class=\"who\">{}</td></tr>",
            band_badge(band),
            who.len(),
            if who.is_empty() { "—".to_string() } else { text(&who.join(", ")) }
        )?;
    }
    writeln!(out, "</tbody></table></section>")
}

/// The result of `game` for the entrant `me`: `W`, `D` or `L`, and the words for a tooltip.
fn result_for(game: &GameRecord, me: &str) -> (&'static str, &'static str) {
    let seat = if game.seats[0].label == me { 1 } else { 2 };
    match game.outcome.winner {
        None => ("D", "drawn"),
        Some(w) if w == seat => ("W", "won"),
        Some(_) => match &game.outcome.adjudication {
            Some(adj) if adj.loser == seat => ("L", "lost by forfeit"),
            _ => ("L", "lost"),
        },
    }
}

fn write_cross(out: &mut dyn Write, page: &TournamentPage<'_>) -> io::Result<()> {
    let mut by_pair: BTreeMap<(&str, &str), &GameRecord> = BTreeMap::new();
    for g in page.games {
        by_pair.insert((g.seats[0].label.as_str(), g.seats[1].label.as_str()), g);
    }
    writeln!(out, "<section id=\"cross\"><h2>Cross table</h2>")?;
    writeln!(
        out,
        "<p class=\"note\">Each cell is the row's result against the column: the first letter as seat 1 (moving \
         first), the second as seat 2; W won, D drawn, L lost. Each letter links to the saved game.</p>"
    )?;
    writeln!(out, "<div class=\"scroll\"><table class=\"cross\" id=\"cross-table\"><thead><tr><td></td>")?;
    for r in page.table {
        writeln!(out, "<th scope=\"col\">{}</th>", text(&r.id))?;
    }
    writeln!(out, "</tr></thead><tbody>")?;
    for row in page.table {
        write!(out, "<tr><th scope=\"row\">{}</th>", text(&row.id))?;
        for col in page.table {
            if row.id == col.id {
                write!(out, "<td class=\"self\" aria-label=\"same agent\">·</td>")?;
                continue;
            }
            let mut cell = Vec::new();
            for (first, second) in [(&row.id, &col.id), (&col.id, &row.id)] {
                cell.push(match by_pair.get(&(first.as_str(), second.as_str())) {
                    Some(g) => {
                        let (letter, words) = result_for(g, &row.id);
                        let seat = if first == &row.id { 1 } else { 2 };
                        format!(
                            "<a class=\"r-{letter}\" href=\"{}\" title=\"{} as seat {seat}: {words}\">{letter}</a>",
                            text(&(page.game_link)(first, second)),
                            text(&row.id)
                        )
                    }
                    None => "–".to_string(),
                });
            }
            write!(out, "<td>{}</td>", cell.join(" "))?;
        }
        writeln!(out, "</tr>")?;
    }
    writeln!(out, "</tbody></table></div></section>")
}
