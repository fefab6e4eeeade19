//! Every diagnostic of an input, with its position and code.

use crate::format::group;
use longpole_core::diagnostics::Severity;
use longpole_core::summary::InputSummary;
use yew::prelude::*;

/// Properties of [`DiagnosticsList`].
#[derive(Properties, PartialEq)]
pub struct DiagnosticsListProps {
    /// The inputs whose diagnostics to list.
    pub inputs: Vec<InputSummary>,
}

fn severity_class(s: Severity) -> &'static str {
    match s {
        Severity::Info => "sev sev-info",
        Severity::Warning => "sev sev-warning",
        Severity::Error => "sev sev-error",
    }
}

/// The diagnostics table.
#[component]
pub fn DiagnosticsList(props: &DiagnosticsListProps) -> Html {
    let total: u64 = props.inputs.iter().map(|i| i.diagnostics.total).sum();
    if total == 0 {
        return html! { <p class="no-diagnostics" data-testid="diagnostics">{ "No diagnostics: every line was understood." }</p> };
    }
    html! {
        <table class="diagnostics" data-testid="diagnostics">
            <thead><tr><th>{ "file" }</th><th>{ "where" }</th><th>{ "severity" }</th><th>{ "code" }</th><th>{ "what" }</th></tr></thead>
            <tbody>
                { for props.inputs.iter().flat_map(|i| i.diagnostics.list.iter().map(move |d| html! {
                    <tr>
                        <td>{ &i.name }</td>
                        <td class="num">{ d.position.to_string() }</td>
                        <td><span class={severity_class(d.severity)}>{ d.severity.to_string() }</span></td>
                        <td><code>{ &*d.code }</code></td>
                        <td>{ &d.message }</td>
                    </tr>
                })) }
                { for props.inputs.iter().filter(|i| (i.diagnostics.list.len() as u64) < i.diagnostics.total).map(|i| html! {
                    <tr class="more">
                        <td>{ &i.name }</td>
                        <td colspan="4">{ format!("… and {} more, counted per code: {}", group(i.diagnostics.total - i.diagnostics.list.len() as u64),
                            i.diagnostics.counts.iter().map(|c| format!("{} × {}", c.code, group(c.count))).collect::<Vec<_>>().join(", ")) }</td>
                    </tr>
                }) }
            </tbody>
        </table>
    }
}
