//! A SQL query's rows drawn over the timeline's time axis, as Perfetto
//! draws a debug track: a row per lane (the first [`LANES`]), a bar per
//! result row from `start_ms` to `end_ms` (ms from the run's start), named
//! by `name`; a bar with a `task_id` selects its task. The query and its
//! track are kept in the page's link (docs/sql.md).

use crate::shared::Shared;
use crate::sql_state::{SqlAction, Track};
use crate::state::Action;
use longpole_core::model::Nanos;
use longpole_core::numbers::{duration_label, group};
use yew::prelude::*;

/// Lanes a track shows at most.
pub const LANES: usize = 12;

/// A lane's height, px.
const ROW: f64 = 14.0;

/// Properties of [`QueryTrack`].
#[derive(Properties, PartialEq)]
pub struct QueryTrackProps {
    /// The track.
    pub track: Shared<Track>,
    /// The time window shown, ns.
    pub window: (Nanos, Nanos),
    /// The run's first time, ns: where the track's ms count from.
    pub origin: Nanos,
    /// The timeline's gutter (lane names), px.
    pub gutter: f64,
    /// The chart's width right of the gutter, px.
    pub width: f64,
    /// The selected task.
    pub selected: Option<u32>,
    /// Actions.
    pub dispatch: Callback<Action>,
}

/// Pixels as SVG text.
fn px(v: f64) -> String {
    format!("{v:.1}")
}

/// The track, above the timeline's lanes.
#[component]
pub fn QueryTrack(props: &QueryTrackProps) -> Html {
    let t = &props.track;
    let (start, end) = props.window;
    let span = (end - start).max(1) as f64;
    let x = |ms: f64| props.gutter + ((props.origin as f64 + ms * 1e6 - start as f64) / span * props.width);
    let lanes = t.lanes.len().min(LANES);
    let height = lanes as f64 * ROW + 2.0;
    let bars = t.bars.iter().filter(|b| (b.lane as usize) < LANES).filter_map(|b| {
        let (x0, x1) = (x(b.start_ms).max(props.gutter), x(b.end_ms).min(props.gutter + props.width));
        if x1 < props.gutter || x0 > props.gutter + props.width {
            return None;
        }
        let tip = format!(
            "{} · {} · {}",
            b.name,
            t.lanes[b.lane as usize],
            duration_label(((b.end_ms - b.start_ms) * 1e6) as Nanos)
        );
        let selected = b.task.is_some() && b.task == props.selected;
        let onclick = b.task.map(|task| props.dispatch.reform(move |_: MouseEvent| Action::Select(Some(task))));
        Some(html! {
            <rect class={classes!("track-bar", selected.then_some("selected"), b.task.is_some().then_some("clickable"))}
                x={px(x0)} y={px(b.lane as f64 * ROW + 1.0)} width={px((x1 - x0).max(1.0))} height={px(ROW - 2.0)}
                data-testid="track-bar" data-task={b.task.map(|t| t.to_string())} {onclick}>
                <title>{ tip }</title>
            </rect>
        })
    });
    let labels = t.lanes.iter().take(LANES).enumerate().map(|(i, name)| {
        html! { <text x="4" y={px(i as f64 * ROW + ROW - 3.0)}><title>{ name }</title>{ name }</text> }
    });
    let hidden_lanes = t.lanes.len().saturating_sub(LANES);
    let drawn = t.bars.len() as u64;
    let close = props.dispatch.reform(|_: MouseEvent| Action::Sql(SqlAction::Track(None)));
    html! {
        <div class="query-track" data-testid="query-track" data-bars={drawn.to_string()}>
            <p class="track-head">
                <strong>{ "Query track" }</strong>
                <code title={t.query.clone()}>{ t.query.lines().next().unwrap_or("").chars().take(100).collect::<String>() }</code>
                { format!(" · {} bars", group(drawn)) }
                if t.rows > drawn {
                    { format!(" (the first of {} rows)", group(t.rows)) }
                }
                if hidden_lanes > 0 {
                    { format!(" · {hidden_lanes} more lanes not shown") }
                }
                <button class="link" onclick={close} title="Take the track away" aria-label="Take the track away" data-testid="track-close">{ "✕" }</button>
            </p>
            <svg class="chart track" width={px(props.gutter + props.width)} height={px(height)}>
                <g class="lanes">{ for labels }</g>
                <g>{ for bars }</g>
            </svg>
        </div>
    }
}
