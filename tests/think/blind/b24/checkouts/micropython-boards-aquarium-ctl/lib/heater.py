from machine import Pin


class Heater:
    def __init__(self, pin, target_c=25.0):
        self.relay = Pin(pin, Pin.OUT, value=0)
        self.target_c = target_c
        self.on = False

    def update(self, temp_c):
        self.on = temp_c < self.target_c
        self.relay.value(1 if self.on else 0)
        return self.on
