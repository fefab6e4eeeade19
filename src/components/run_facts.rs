//! The run's key numbers as machine-readable elements (visually hidden):
//! for tests and automation, present whichever tab is open.

use longpole_core::model::NANOS_PER_MS;
use longpole_core::view::RunView;
use yew::prelude::*;

/// Properties of [`RunFacts`].
#[derive(Properties, PartialEq)]
pub struct RunFactsProps {
    /// The run.
    pub view: std::rc::Rc<RunView>,
}

/// The facts.
#[component]
pub fn RunFacts(props: &RunFactsProps) -> Html {
    let v = &props.view;
    let ms = |ns: i64| (ns / NANOS_PER_MS).to_string();
    html! {
        <div class="visually-hidden" data-testid="run-facts">
            <span data-testid="critical-path-total-ms">{ ms(v.critical_path.total) }</span>
            <span data-testid="blocking-chain-total-ms">{ ms(v.blocking_chain.total) }</span>
            <span data-testid="task-count-run">{ v.counts.run }</span>
            <span data-testid="task-count-copy">{ v.counts.copy }</span>
            <span data-testid="task-count-prepare">{ v.counts.prepare }</span>
            <ol>
                { for v.critical_path.steps.iter().map(|s| html! {
                    <li data-testid="critical-path-task" data-kind={s.kind.clone()} data-uid={s.uid.clone()} />
                }) }
            </ol>
        </div>
    }
}
