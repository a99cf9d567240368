defmodule WeatherStation.ReporterTest do
  use ExUnit.Case, async: true

  alias WeatherStation.Reporter

  test "formats a reading as a line protocol point" do
    reading = %{temp_c: 21.5, humidity: 81.0, pressure_hpa: 1009.2}

    assert Reporter.to_line(reading, "shed", 1_700_000_000) ==
             "weather,site=shed temp_c=21.5,humidity=81.0,pressure_hpa=1009.2 1700000000000000000"
  end
end
