//! A small notice about the offline copy (updated, a newer version ready,
//! refused), in a corner of the page: it never blocks what is shown.

use crate::offline::ShellNotice;
use yew::prelude::*;

/// Properties of [`ShellNoticeView`].
#[derive(Properties, PartialEq)]
pub struct ShellNoticeProps {
    /// What to say.
    pub notice: ShellNotice,
    /// Reloads the page (offered when a newer version is ready).
    pub on_reload: Callback<()>,
    /// Hides the notice.
    pub on_close: Callback<()>,
}

/// The notice.
#[component]
pub fn ShellNoticeView(props: &ShellNoticeProps) -> Html {
    let notice = &props.notice;
    let alert = matches!(
        notice,
        ShellNotice::Refused { .. } | ShellNotice::NotRegistered { .. } | ShellNotice::BadMessage { .. }
    );
    html! {
        <aside class={classes!("shell-notice", alert.then_some("alert"))} role="status"
            data-testid="shell-notice" data-kind={notice.kind()}>
            <span data-testid="shell-notice-text">{ notice.text() }</span>
            if notice.offers_reload() {
                <button data-testid="shell-reload" onclick={props.on_reload.reform(|_| ())}>{ "Reload" }</button>
            }
            <button class="close" title="Hide" aria-label="Hide this notice" onclick={props.on_close.reform(|_| ())}>{ "×" }</button>
        </aside>
    }
}
