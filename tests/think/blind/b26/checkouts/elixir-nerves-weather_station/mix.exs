defmodule WeatherStation.MixProject do
  use Mix.Project

  @app :weather_station
  @version "0.6.2"
  @all_targets [:rpi0, :rpi4]

  def project do
    [
      app: @app,
      version: @version,
      elixir: "~> 1.17",
      archives: [nerves_bootstrap: "~> 1.13"],
      start_permanent: Mix.env() == :prod,
      deps: deps(),
      releases: [{@app, release()}],
      preferred_cli_target: [run: :host, test: :host]
    ]
  end

  def application do
    [mod: {WeatherStation.Application, []}, extra_applications: [:logger, :runtime_tools]]
  end

  defp deps do
    [
      {:nerves, "~> 1.11", runtime: false},
      {:shoehorn, "~> 0.9.1"},
      {:ring_logger, "~> 0.11.0"},
      {:toolshed, "~> 0.4.0"},
      {:circuits_i2c, "~> 2.0"},
      {:credo, "~> 1.7", only: [:dev, :test], runtime: false},
      {:nerves_runtime, "~> 0.13.0", targets: @all_targets},
      {:nerves_pack, "~> 0.7.1", targets: @all_targets},
      {:nerves_system_rpi0, "~> 1.29", runtime: false, targets: :rpi0},
      {:nerves_system_rpi4, "~> 1.29", runtime: false, targets: :rpi4}
    ]
  end

  def release do
    [
      overwrite: true,
      cookie: "#{@app}_cookie",
      include_erts: &Nerves.Release.erts/0,
      steps: [&Nerves.Release.init/1, :assemble],
      strip_beams: Mix.env() == :prod or [keep: ["Docs"]]
    ]
  end
end
