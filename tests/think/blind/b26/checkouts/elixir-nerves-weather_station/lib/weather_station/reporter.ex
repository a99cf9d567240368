defmodule WeatherStation.Reporter do
  @moduledoc "Pushes readings to the InfluxDB instance on the home server."
  require Logger

  @spec to_line(map(), String.t(), integer()) :: String.t()
  def to_line(reading, site, unix_s) do
    fields =
      reading
      |> Enum.sort()
      |> Enum.map_join(",", fn {k, v} -> "#{k}=#{v}" end)

    "weather,site=#{site} #{fields} #{unix_s * 1_000_000_000}"
  end

  def push(reading, opts \\ []) do
    url = Keyword.get(opts, :url, Application.fetch_env!(:weather_station, :influx_url))
    line = to_line(reading, Keyword.get(opts, :site, "shed"), System.os_time(:second))
    Req.post(url, body: line)
  end
end
