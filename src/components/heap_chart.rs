//! A GHC program's heap over time, under the timeline and on its time
//! window: a step line for the heap's size and one for its live data, on
//! one scale; what the program allocated, in all and per capability, is
//! given in the legend.

use crate::format::bytes;
use longpole_core::formats::ghc_eventlog::allocation::Allocation;
use longpole_core::formats::ghc_eventlog::view::HeapSeries;
use longpole_core::model::Nanos;
use std::fmt::Write;
use yew::prelude::*;

/// Height of the plot, in its own units (it stretches to the page's width).
pub(super) const H: f64 = 100.0;
/// Width of the plot, in its own units.
pub(super) const W: f64 = 1000.0;

/// Properties of [`HeapChart`].
#[derive(Properties, PartialEq)]
pub struct HeapChartProps {
    /// The figures.
    pub series: Vec<HeapSeries>,
    /// What the program allocated, in all and per capability.
    pub allocation: Option<Allocation>,
    /// The time window shown, ns (the timeline's).
    pub window: (Nanos, Nanos),
}

/// The step line of one series over the window, `value` scaled to `max`,
/// in a plot of [`W`] × [`H`] units.
pub(super) fn step_path<V: Copy>(
    points: &[(Nanos, V)],
    window: (Nanos, Nanos),
    value: impl Fn(V) -> f64,
    max: f64,
) -> String {
    let span = (window.1 - window.0).max(1) as f64;
    let x = |t: Nanos| ((t - window.0) as f64 / span * W).clamp(-1.0, W + 1.0);
    let y = |b: V| H - value(b) / max.max(1.0) * H;
    // From the last point before the window to the first after it.
    let first = points.partition_point(|p| p.0 < window.0).saturating_sub(1);
    let last = (points.partition_point(|p| p.0 <= window.1) + 1).min(points.len());
    let mut d = String::new();
    for (i, &(t, b)) in points[first..last].iter().enumerate() {
        if i == 0 {
            let _ = write!(d, "M{:.1} {:.1}", x(t), y(b));
        } else {
            let _ = write!(d, "H{:.1}V{:.1}", x(t), y(b));
        }
    }
    if let Some(&(t, _)) = points[first..last].last() {
        if t < window.1 {
            let _ = write!(d, "H{W}");
        }
    }
    d
}

/// A series' line in the legend: its largest value, or for allocation the
/// program's total with each capability's share.
fn legend(s: &HeapSeries, allocation: Option<&Allocation>) -> String {
    match allocation.filter(|_| s.figure == "allocated") {
        Some(a) => format!("allocated · {} in all (per capability: {})", bytes(a.total), a.shares(bytes)),
        None => format!("{} · max {}", s.figure, bytes(s.max)),
    }
}

/// The heap chart; nothing when the log has no heap size or live data.
#[component]
pub fn HeapChart(props: &HeapChartProps) -> Html {
    // Allocation only grows (it counts every byte ever allocated): it would
    // flatten the others, so it is in the legend, not on the plot.
    let plotted: Vec<&HeapSeries> = props.series.iter().filter(|s| s.figure != "allocated").collect();
    let max = plotted.iter().map(|s| s.max).max().unwrap_or(0);
    if plotted.is_empty() {
        return html! {};
    }
    html! {
        <section class="heap-chart" data-testid="heap-chart" aria-label="Heap over time">
            <div class="heap-legend">
                <h3>{ "Heap" }</h3>
                { for props.series.iter().map(|s| {
                    let i = plotted.iter().position(|p| p.figure == s.figure);
                    html! {
                        <p class={i.map(|i| format!("heap-{i}"))} title={format!("{} samples", s.samples)}>
                            if i.is_some() { <span class="swatch"></span> }
                            { legend(s, props.allocation.as_ref()) }
                        </p>
                    }
                }) }
                <p class="muted">{ format!("scale 0 – {}", bytes(max)) }</p>
            </div>
            <svg class="heap-plot" viewBox={format!("0 0 {W} {H}")} preserveAspectRatio="none" role="img"
                aria-label="heap figures over the time window">
                { for plotted.iter().enumerate().map(|(i, s)| html! {
                    <path class={format!("heap-line heap-{i}")} d={step_path(&s.points, props.window, |b| b as f64, max as f64)}
                        vector-effect="non-scaling-stroke" />
                }) }
            </svg>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_step_line_holds_each_value_until_the_next_sample() {
        let points = [(0, 0), (500, 50), (1000, 100)];
        assert_eq!(step_path(&points, (0, 1000), |b| b as f64, 100.0), "M0.0 100.0H500.0V50.0H1000.0V0.0");
        // Zoomed in: starts at the sample before the window and runs to its end.
        assert_eq!(step_path(&points, (600, 800), |b| b as f64, 100.0), "M-1.0 50.0H1001.0V0.0");
    }
}
