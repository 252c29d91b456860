//! Inline SVG charts: a histogram (bars with their counts written on them) and an interval chart (a point with
//! an error bar per row). Each chart is an `<svg role="img">` with a `<title>` and a `<desc>` naming every value,
//! so a screen reader gets the numbers the picture shows; every number is also in a table next to it.

use std::fmt::Write as _;

use super::escape::text;

/// One bar of a histogram: its label under the axis and its height.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bin {
    /// Shown under the bar (`0`, `1`, `90–100%`).
    pub label: String,
    /// How many fall in it.
    pub count: usize,
}

/// A histogram of `bins` as SVG, with `title` for assistive technology and `x_label` under the axis.
pub fn histogram(id: &str, title: &str, x_label: &str, bins: &[Bin]) -> String {
    let (width, height, left, bottom, top) = (560.0, 220.0, 36.0, 44.0, 16.0);
    let plot_h = height - bottom - top;
    // The axis goes to a multiple of four, so the four grid lines fall on whole counts.
    let step = bins.iter().map(|b| b.count).max().unwrap_or(0).div_ceil(4).max(1);
    let max = (step * 4) as f64;
    let slot = (width - left - 8.0) / bins.len().max(1) as f64;
    let mut s = String::new();
    let desc: Vec<String> = bins.iter().map(|b| format!("{}: {}", b.label, b.count)).collect();
    let _ = write!(
        s,
        "<svg class=\"chart histogram\" id=\"{id}\" viewBox=\"0 0 {width} {height}\" role=\"img\" \
         aria-labelledby=\"{id}-t {id}-d\"><title id=\"{id}-t\">{}</title><desc id=\"{id}-d\">{}</desc>",
        text(title),
        text(&desc.join("; "))
    );
    let base = height - bottom;
    // Four grid lines with their counts on the left.
    for k in 0..=4 {
        let y = base - plot_h * f64::from(k) / 4.0;
        let value = step * k as usize;
        let _ = write!(
            s,
            "<line class=\"grid\" x1=\"{left}\" x2=\"{}\" y1=\"{y:.1}\" y2=\"{y:.1}\"/>\
             <text x=\"{}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
            width - 8.0,
            left - 4.0,
            y + 4.0,
            value
        );
    }
    for (i, b) in bins.iter().enumerate() {
        let h = plot_h * b.count as f64 / max;
        let x = left + slot * i as f64 + slot * 0.12;
        let w = slot * 0.76;
        let cx = x + w / 2.0;
        let _ = write!(
            s,
            "<rect class=\"bar\" x=\"{x:.1}\" y=\"{:.1}\" width=\"{w:.1}\" height=\"{h:.1}\"><title>{}: {}</title></rect>",
            base - h,
            text(&b.label),
            b.count
        );
        if b.count > 0 {
            let _ =
                write!(s, "<text x=\"{cx:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>", base - h - 3.0, b.count);
        }
        let _ =
            write!(s, "<text x=\"{cx:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>", base + 14.0, text(&b.label));
    }
    let _ = write!(
        s,
        "<line class=\"axis\" x1=\"{left}\" x2=\"{}\" y1=\"{base}\" y2=\"{base}\"/>\
         <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text></svg>",
        width - 8.0,
        left + (width - left) / 2.0,
        height - 6.0,
        text(x_label)
    );
    s
}

/// One row of an interval chart: a label, a value and its standard error.
#[derive(Clone, Debug, PartialEq)]
pub struct Interval {
    /// The row's label (escaped here).
    pub label: String,
    /// The point.
    pub value: f64,
    /// Half the bar's length.
    pub error: f64,
}

/// Rows of points with horizontal error bars (value ± error), one row each, on a shared axis that `reference`
/// (e.g. the mean rating) is marked on.
pub fn intervals(id: &str, title: &str, reference: f64, rows: &[Interval]) -> String {
    let (width, left, right, row_h, top) = (560.0, 150.0, 16.0, 24.0, 8.0);
    let height = top + row_h * rows.len() as f64 + 34.0;
    let finite = |x: f64| if x.is_finite() { x } else { 0.0 };
    let lo = rows.iter().map(|r| finite(r.value - r.error)).fold(reference, f64::min);
    let hi = rows.iter().map(|r| finite(r.value + r.error)).fold(reference, f64::max);
    let span = (hi - lo).max(1.0);
    let (lo, hi) = (lo - span * 0.05, hi + span * 0.05);
    let x_of = |v: f64| left + (width - left - right) * (finite(v).clamp(lo, hi) - lo) / (hi - lo);
    let desc: Vec<String> =
        rows.iter().map(|r| format!("{}: {} ± {}", r.label, r.value.round(), r.error.round())).collect();
    let mut s = String::new();
    let _ = write!(
        s,
        "<svg class=\"chart intervals\" id=\"{id}\" viewBox=\"0 0 {width} {height:.0}\" role=\"img\" \
         aria-labelledby=\"{id}-t {id}-d\"><title id=\"{id}-t\">{}</title><desc id=\"{id}-d\">{}</desc>",
        text(title),
        text(&desc.join("; "))
    );
    let axis_y = top + row_h * rows.len() as f64 + 4.0;
    let rx = x_of(reference);
    let _ = write!(
        s,
        "<line class=\"grid\" x1=\"{rx:.1}\" x2=\"{rx:.1}\" y1=\"{top}\" y2=\"{axis_y:.1}\"/>\
         <line class=\"axis\" x1=\"{left}\" x2=\"{:.1}\" y1=\"{axis_y:.1}\" y2=\"{axis_y:.1}\"/>",
        width - right
    );
    let step = nice_step((hi - lo) / 4.0);
    let mut v = (lo / step).ceil() * step;
    while v <= hi {
        let _ = write!(
            s,
            "<line class=\"axis\" x1=\"{x:.1}\" x2=\"{x:.1}\" y1=\"{axis_y:.1}\" y2=\"{:.1}\"/>\
             <text x=\"{x:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{v:.0}</text>",
            axis_y + 4.0,
            axis_y + 18.0,
            x = x_of(v)
        );
        v += step;
    }
    for (i, r) in rows.iter().enumerate() {
        let y = top + row_h * i as f64 + row_h / 2.0;
        let (a, b, c) = (x_of(r.value - r.error), x_of(r.value), x_of(r.value + r.error));
        let _ = write!(
            s,
            "<g><title>{}: {:.0} ± {:.0}</title>\
             <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>\
             <line class=\"whisker\" x1=\"{a:.1}\" x2=\"{c:.1}\" y1=\"{y:.1}\" y2=\"{y:.1}\"/>\
             <line class=\"whisker\" x1=\"{a:.1}\" x2=\"{a:.1}\" y1=\"{:.1}\" y2=\"{:.1}\"/>\
             <line class=\"whisker\" x1=\"{c:.1}\" x2=\"{c:.1}\" y1=\"{:.1}\" y2=\"{:.1}\"/>\
             <circle class=\"dot\" cx=\"{b:.1}\" cy=\"{y:.1}\" r=\"4\"/></g>",
            text(&r.label),
            r.value,
            r.error,
            left - 8.0,
            y + 4.0,
            text(&short(&r.label, 16)),
            y - 5.0,
            y + 5.0,
            y - 5.0,
            y + 5.0,
        );
    }
    s.push_str("</svg>");
    s
}

/// The tick spacing for about `rough`: 1, 2 or 5 times a power of ten, so ticks fall on round numbers.
fn nice_step(rough: f64) -> f64 {
    if !(rough.is_finite() && rough > 0.0) {
        return 1.0;
    }
    let power = 10f64.powf(rough.log10().floor());
    let base = rough / power;
    power
        * if base <= 1.0 {
            1.0
        } else if base <= 2.0 {
            2.0
        } else if base <= 5.0 {
            5.0
        } else {
            10.0
        }
}

/// `label` cut to `n` characters with an ellipsis (the full text is in the row's tooltip and the table).
fn short(label: &str, n: usize) -> String {
    if label.chars().count() <= n {
        label.to_string()
    } else {
        let mut cut: String = label.chars().take(n - 1).collect();
        cut.push('…');
        cut
    }
}
