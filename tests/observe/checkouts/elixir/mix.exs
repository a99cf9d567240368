defmodule Shop.MixProject do
  use Mix.Project

  def project do
    [app: :shop, version: "0.1.0", aliases: aliases()]
  end

  defp aliases do
    [
      setup: ["deps.get", "cmd npm install --prefix assets"],
      lint: ["credo --strict", "dialyzer"],
      "assets.build": ["tailwind default"],
      reset: &reset/1
    ]
  end

  defp reset(_), do: :ok
end
