defmodule Kiosk.MixProject do
  use Mix.Project

  @app :kiosk
  @version "0.9.2"
  @all_targets [:rpi3, :rpi4]

  def project do
    [
      app: @app,
      version: @version,
      elixir: "~> 1.16",
      archives: [nerves_bootstrap: "~> 1.13"],
      start_permanent: Mix.env() == :prod,
      deps: deps(),
      releases: [{@app, release()}],
      preferred_cli_target: [run: :host, test: :host]
    ]
  end

  def application do
    [
      mod: {Kiosk.Application, []},
      extra_applications: [:logger, :runtime_tools]
    ]
  end

  defp deps do
    [
      {:nerves, "~> 1.11", runtime: false},
      {:shoehorn, "~> 0.9.1"},
      {:ring_logger, "~> 0.11.0"},
      {:toolshed, "~> 0.4.0"},
      {:vintage_net_wifi, "~> 0.12"},
      {:circuits_gpio, "~> 2.1"},
      {:nerves_runtime, "~> 0.13.0", targets: @all_targets},
      {:nerves_pack, "~> 0.7.1", targets: @all_targets},
      {:nerves_system_rpi3, "~> 1.29", runtime: false, targets: :rpi3},
      {:nerves_system_rpi4, "~> 1.29", runtime: false, targets: :rpi4},
      {:mox, "~> 1.1", only: :test}
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
