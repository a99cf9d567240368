from adafruit_macropad import MacroPad
from macros import MacroEngine

macropad = MacroPad()
engine = MacroEngine()

while True:
    event = macropad.keys.events.get()
    if event and event.pressed:
        action = engine.on_press(event.key_number)
        if action:
            macropad.keyboard.send(*[getattr(macropad.Keycode, a.upper(), None) or a for a in action])
