import time
from heater import Heater
from ds18x20_probe import read_temp

heater = Heater(15, target_c=25.5)

while True:
    t = read_temp()
    heater.update(t)
    print("temp", t, "heater", heater.on)
    time.sleep(30)
