//! The page's entry point.

fn main() {
    yew::Renderer::<longpole::components::App>::new().render();
}
