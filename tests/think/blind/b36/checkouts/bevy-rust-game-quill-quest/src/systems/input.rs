use bevy::prelude::*;
use leafwing_input_manager::prelude::*;

#[derive(Actionlike, PartialEq, Eq, Hash, Clone, Copy, Debug, Reflect)]
pub enum Action {
    Move,
    Jump,
    Write,
    Pause,
}

pub fn default_input_map() -> InputMap<Action> {
    InputMap::new([(Action::Jump, KeyCode::Space), (Action::Write, KeyCode::KeyE), (Action::Pause, KeyCode::Escape)])
        .with_dual_axis(Action::Move, KeyboardVirtualDPad::WASD)
}
