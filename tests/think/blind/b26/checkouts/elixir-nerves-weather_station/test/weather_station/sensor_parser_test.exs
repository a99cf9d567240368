defmodule WeatherStation.SensorParserTest do
  use ExUnit.Case, async: true

  alias WeatherStation.SensorParser

  # raw 8-byte frames captured from the shed unit with `i2cdump`
  @positive_frame <<0x01, 0x58, 0x03, 0x2A, 0x27, 0x6C, 0x00, 0xD7>>
  @negative_frame <<0xFF, 0xB8, 0x03, 0x2C, 0x27, 0x6E, 0x01, 0x2C>>

  describe "parse/1" do
    test "decodes a normal frame" do
      assert {:ok, %{temp_c: 21.5}} = SensorParser.parse(@positive_frame)
    end

    test "decodes a frame with a negative temperature" do
      assert {:ok, %{temp_c: -4.5}} = SensorParser.parse(@negative_frame)
    end

    test "rejects short frames" do
      assert {:error, :bad_frame} = SensorParser.parse(<<1, 2, 3>>)
    end
  end
end
