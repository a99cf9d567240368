import time
import board
import neopixel

PIXELS = 60
BRIGHTNESS = 0.3

pixels = neopixel.NeoPixel(board.GP15, PIXELS, brightness=BRIGHTNESS, auto_write=False)


def wheel(pos):
    if pos < 85:
        return (255 - pos * 3, pos * 3, 0)
    if pos < 170:
        pos -= 85
        return (0, 255 - pos * 3, pos * 3)
    pos -= 170
    return (pos * 3, 0, 255 - pos * 3)


while True:
    for j in range(255):
        for i in range(PIXELS):
            pixels[i] = wheel((i * 256 // PIXELS + j) & 255)
        pixels.show()
        time.sleep(0.02)
