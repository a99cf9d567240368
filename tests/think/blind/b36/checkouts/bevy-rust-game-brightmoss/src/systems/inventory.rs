use bevy::prelude::*;

#[derive(Component, Default)]
pub struct Inventory {
    pub slots: Vec<Option<ItemStack>>,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ItemStack {
    pub item: ItemId,
    pub count: u16,
}
