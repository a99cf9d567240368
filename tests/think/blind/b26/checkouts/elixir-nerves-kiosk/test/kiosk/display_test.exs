defmodule Kiosk.DisplayTest do
  use ExUnit.Case, async: true
  import Mox

  alias Kiosk.Display

  setup :verify_on_exit!

  describe "brightness/1" do
    test "passes through values in range" do
      assert Display.brightness(128) == 128
    end

    test "clamps below 0" do
      assert Display.brightness(-10) == 0
    end

    test "clamps to 0..255" do
      assert Display.brightness(300) == 255
    end
  end

  describe "apply_brightness/1" do
    test "writes to the backlight" do
      expect(Kiosk.BacklightMock, :write, fn 200 -> :ok end)
      assert :ok = Display.apply_brightness(200)
    end
  end
end
