//! The differential flame graph: side B's frames (their widths from B),
//! each coloured by the change of its total since A (red slower, blue
//! faster, green new), outlined where its self time changed too; a
//! minimum change hides noise (a change under it, or under the relative
//! threshold, is drawn grey). A click shows a frame's numbers. The measure
//! (real, cpu, sys time…) is picked as on the run's flame graph.

use super::measure_pick::MeasurePick;
use longpole_core::model::flame::Unit;
use longpole_core::view::compare_flame::{DiffFlame, DiffFrame};
use wasm_bindgen::JsCast;
use web_sys::HtmlInputElement;
use yew::prelude::*;

/// Properties of [`CompareFlame`].
#[derive(Properties, PartialEq)]
pub struct CompareFlameProps {
    /// One graph per measure (at least one).
    pub flames: crate::shared::Shared<Vec<DiffFlame>>,
    /// The comparison's absolute threshold, ms: the cut-off at first.
    pub min_delta_ms: f64,
    /// The comparison's relative threshold.
    pub min_relative: f64,
}

/// The drawing's width and a frame's height, px.
const WIDTH: f64 = 1000.0;
/// A frame's height, px.
const ROW: f64 = 16.0;

/// Milliseconds in the measure's own unit (a count is taken as is).
fn from_ms(ms: f64, unit: Unit) -> f64 {
    match unit {
        Unit::Nanos => ms * 1e6,
        Unit::Micros => ms * 1e3,
        Unit::Count => ms,
    }
}

/// Whether `b` differs from `a` past both the cut-off and the relative threshold.
fn changed(a: u64, b: u64, cutoff: f64, min_relative: f64) -> bool {
    let delta = b as f64 - a as f64;
    let relative = if a > 0 { delta / a as f64 } else { f64::INFINITY };
    delta.abs() >= cutoff && relative.abs() >= min_relative
}

/// A frame's colour class, by the change of its total.
fn class(f: &DiffFrame, cutoff: f64, min_relative: f64) -> &'static str {
    let Some(a) = f.a_total else { return "d-new" };
    if !changed(a, f.b_total, cutoff, min_relative) {
        return "d-same";
    }
    let relative = if a > 0 { (f.b_total as f64 - a as f64) / a as f64 } else { f64::INFINITY };
    match relative {
        r if r >= 1.0 => "d-up3",
        r if r >= 0.25 => "d-up2",
        r if r > 0.0 => "d-up1",
        r if r <= -0.5 => "d-down3",
        r if r <= -0.25 => "d-down2",
        _ => "d-down1",
    }
}

/// A signed change in the measure's unit.
fn signed(unit: Unit, a: u64, b: u64) -> String {
    let sign = if b >= a { "+" } else { "-" };
    format!("{sign}{}", unit.show(a.abs_diff(b)))
}

/// What a frame's numbers are, in words.
fn numbers(f: &DiffFrame, unit: Unit) -> String {
    match (f.a_total, f.a_self) {
        (Some(a), Some(a_self)) => format!(
            "{}: total {} → {} ({}), self {} → {} ({})",
            f.path,
            unit.show(a),
            unit.show(f.b_total),
            signed(unit, a, f.b_total),
            unit.show(a_self),
            unit.show(f.b_self),
            signed(unit, a_self, f.b_self)
        ),
        _ => format!("{}: only in B, total {}, self {}", f.path, unit.show(f.b_total), unit.show(f.b_self)),
    }
}

/// The differential flame graph.
#[component]
pub fn CompareFlame(props: &CompareFlameProps) -> Html {
    let cutoff_ms = use_state(|| props.min_delta_ms);
    let selected = use_state(|| None::<usize>);
    let measure = use_state(|| 0usize);
    // Another comparison may have fewer measures: the first then.
    let m = if *measure < props.flames.len() { *measure } else { 0 };
    let Some(f) = props.flames.get(m) else { return html! {} };
    let measures: Vec<(AttrValue, AttrValue)> =
        props.flames.iter().map(|f| (f.name.clone().into(), f.measure.clone().into())).collect();
    let pick = {
        let (measure, selected) = (measure.clone(), selected.clone());
        Callback::from(move |i: usize| {
            measure.set(i);
            selected.set(None);
        })
    };
    let cutoff = from_ms(*cutoff_ms, f.unit);
    let on_cutoff = {
        let cutoff_ms = cutoff_ms.clone();
        Callback::from(move |e: Event| {
            let value = e.target_unchecked_into::<HtmlInputElement>().value();
            if let Some(v) = value.trim().parse::<f64>().ok().filter(|v| v.is_finite() && *v >= 0.0) {
                cutoff_ms.set(v);
            }
        })
    };
    let onclick = {
        let selected = selected.clone();
        Callback::from(move |e: MouseEvent| {
            let frame = e
                .target()
                .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                .and_then(|el| el.closest("[data-frame]").ok().flatten())
                .and_then(|el| el.get_attribute("data-frame"))
                .and_then(|i| i.parse().ok());
            selected.set(frame);
        })
    };
    let height = f64::from(f.depth + 1) * ROW;
    let unit_label = if f.unit == Unit::Count { "count" } else { "ms" };
    html! {
        <section class="compare-flame" data-testid="compare-flame">
            <h3>{ format!("Differential flame graph · {} · widths from B", f.measure) }</h3>
            if measures.len() > 1 {
                <MeasurePick {measures} on={m} hook="compare-flame-kind-" {pick} />
            }
            <p class="muted">
                <label>{ format!("hide changes under ({unit_label}) ") }
                    <input type="text" inputmode="decimal" size="8" value={(*cutoff_ms).to_string()} onchange={on_cutoff}
                        data-testid="compare-flame-cutoff" />
                </label>
                { format!(
                    " or under {}% · red: slower, blue: faster, green: only in B, grey: within the cut-off; outlined: its self time changed too{}",
                    props.min_relative * 100.0,
                    if f.left_out > 0 || f.only_a > 0 { format!(" · {} narrow frames not drawn, {} frames only in A", f.left_out, f.only_a) } else { String::new() }
                ) }
            </p>
            if let Some(frame) = selected.and_then(|i| f.frames.get(i)) {
                <p data-testid="compare-flame-selected" data-path={frame.path.clone()} data-b-total={frame.b_total.to_string()}
                    data-a-total={frame.a_total.map(|a| a.to_string())}>{ numbers(frame, f.unit) }</p>
            }
            <svg class="compare-flame-svg" viewBox={format!("0 0 {WIDTH} {height}")} width="100%" {onclick} role="img"
                aria-label="Differential flame graph">
                { for f.frames.iter().enumerate().map(|(i, fr)| {
                    let (x, w) = (fr.x * WIDTH, (fr.width * WIDTH).max(0.5));
                    let y = f64::from(fr.depth) * ROW;
                    let self_changed = fr.a_self.is_some_and(|a| changed(a, fr.b_self, cutoff, props.min_relative));
                    let chars = ((w - 6.0) / 6.5).floor().max(0.0) as usize;
                    let label: String = if fr.name.chars().count() <= chars { fr.name.clone() } else if chars > 2 { fr.name.chars().take(chars - 1).chain(['…']).collect() } else { String::new() };
                    html! {
                        <g data-frame={i.to_string()} class={classes!("frame", class(fr, cutoff, props.min_relative), self_changed.then_some("self-changed"), (*selected == Some(i)).then_some("hot"))}>
                            <rect x={format!("{x:.2}")} y={format!("{y:.1}")} width={format!("{w:.2}")} height={format!("{:.1}", ROW - 1.0)} />
                            if !label.is_empty() {
                                <text x={format!("{:.2}", x + 3.0)} y={format!("{:.1}", y + ROW - 4.0)}>{ label }</text>
                            }
                        </g>
                    }
                }) }
            </svg>
        </section>
    }
}
