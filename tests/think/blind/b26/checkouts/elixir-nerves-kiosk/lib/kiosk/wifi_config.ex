defmodule Kiosk.WifiConfig do
  @moduledoc "Builds VintageNet WiFi configurations for the kiosk's wlan0."

  @spec build(String.t(), String.t() | nil) :: map()
  def build(ssid, nil) do
    %{type: VintageNetWiFi, vintage_net_wifi: %{networks: [%{ssid: ssid, key_mgmt: :none}]}, ipv4: %{method: :dhcp}}
  end

  def build(ssid, psk) do
    %{
      type: VintageNetWiFi,
      vintage_net_wifi: %{networks: [%{ssid: ssid, psk: psk, key_mgmt: :wpa_psk}]},
      ipv4: %{method: :dhcp}
    }
  end

  @spec apply(map()) :: :ok | {:error, any()}
  def apply(config), do: VintageNet.configure("wlan0", config)
end
