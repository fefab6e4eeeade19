//! A finished analysis: the headline, each input, each run, the diagnostics.

use super::diagnostics_list::DiagnosticsList;
use crate::format::{bytes, group, millis};
use crate::shared::Shared;
use longpole_core::model::NANOS_PER_MS;
use longpole_core::Summary;
use yew::prelude::*;

/// Properties of [`SummaryView`].
#[derive(Properties, PartialEq)]
pub struct SummaryViewProps {
    /// What was found.
    pub summary: Shared<Summary>,
    /// How long reading took, ms.
    pub elapsed_ms: f64,
}

/// The analysis summary.
#[component]
pub fn SummaryView(props: &SummaryViewProps) -> Html {
    let s = &props.summary;
    // The format of what was analysed: the runs' formats, else the inputs'.
    let mut formats: Vec<&str> = if s.datasets.is_empty() {
        s.inputs.iter().map(|i| i.format.name()).collect()
    } else {
        s.datasets.iter().map(|d| d.format.name()).collect()
    };
    formats.dedup();
    let warnings: u64 = s.inputs.iter().map(|i| i.diagnostics.warnings + i.diagnostics.errors).sum();
    let lines: u64 = s.inputs.iter().map(|i| i.lines).sum();
    let read: u64 = s.inputs.iter().map(|i| i.bytes).sum();
    html! {
        <section class="summary" data-testid="analysis-ready">
            <p class="headline">
                <strong>{ s.inputs.iter().map(|i| i.name.as_str()).collect::<Vec<_>>().join(" + ") }</strong>
                { " · " }<span data-testid="detected-format" title={s.inputs.first().map(|i| i.format.title())}>{ formats.join(", ") }</span>
                { format!(" · {} lines · {} warnings · read {} in {}", group(lines), group(warnings), bytes(read), millis(props.elapsed_ms)) }
            </p>
            { for s.datasets.iter().map(|d| html! {
                <p class="dataset">
                    { format!("{} tasks ({} work, {} transfer, {} setup) on {} lanes, {} dependency edges",
                        group(d.tasks as u64), group(d.work_tasks as u64), group(d.transfer_tasks as u64), group(d.setup_tasks as u64),
                        group(d.lanes as u64), group(d.edges as u64)) }
                    if let Some(w) = d.wall_ns {
                        { " · wall " }<strong title={format!("{} ms", longpole_core::numbers::ms(w))}>{ millis(w as f64 / NANOS_PER_MS as f64) }</strong>
                    }
                </p>
            }) }
            <table class="inputs">
                <thead><tr><th>{ "file" }</th><th>{ "format" }</th><th>{ "compression" }</th><th class="num">{ "size" }</th><th class="num">{ "lines" }</th><th class="num">{ "events" }</th><th class="num">{ "diagnostics" }</th></tr></thead>
                <tbody>
                    { for s.inputs.iter().map(|i| html! {
                        <tr>
                            <td>{ &i.name }</td>
                            <td title={i.format.name()}>{ i.format.title() }</td>
                            <td>{ i.compression.name() }</td>
                            <td class="num" title={format!("{} bytes, {} decompressed", group(i.bytes), group(i.decompressed_bytes))}>{ bytes(i.bytes) }</td>
                            <td class="num">{ group(i.lines) }</td>
                            <td class="num">{ group(i.events) }</td>
                            <td class="num">{ group(i.diagnostics.total) }</td>
                        </tr>
                    }) }
                </tbody>
            </table>
            <h2>{ "Diagnostics" }</h2>
            <DiagnosticsList inputs={s.inputs.clone()} />
        </section>
    }
}
