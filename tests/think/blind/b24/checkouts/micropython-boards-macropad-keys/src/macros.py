"""Key-to-macro mapping, kept free of board imports so it can be tested on the host."""

LAYERS = {
    "default": {0: ("ctrl", "c"), 1: ("ctrl", "v"), 2: ("ctrl", "z")},
    "media": {0: ("play_pause",), 1: ("vol_down",), 2: ("vol_up",)},
}


class MacroEngine:
    def __init__(self, layers=LAYERS):
        self.layers = layers
        self.layer = "default"

    def on_press(self, key):
        return self.layers[self.layer].get(key)
