defmodule Quill.MixProject do
  use Mix.Project

  def project do
    [
      app: :quill,
      version: "1.3.0",
      elixir: "~> 1.17",
      start_permanent: Mix.env() == :prod,
      deps: deps(),
      aliases: aliases(),
      preferred_cli_env: [ci: :test]
    ]
  end

  def application, do: [extra_applications: [:logger]]

  defp deps do
    [
      {:credo, "~> 1.7", only: [:dev, :test], runtime: false},
      {:ex_doc, "~> 0.34", only: :dev, runtime: false}
    ]
  end

  defp aliases do
    [
      ci: ["format --check-formatted", "credo --strict", "test --warnings-as-errors"]
    ]
  end
end
