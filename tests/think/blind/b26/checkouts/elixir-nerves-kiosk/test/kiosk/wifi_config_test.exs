defmodule Kiosk.WifiConfigTest do
  use ExUnit.Case, async: true

  alias Kiosk.WifiConfig

  test "builds a WPA2 config for VintageNet" do
    assert %{type: VintageNetWiFi, vintage_net_wifi: %{networks: [net]}} =
             WifiConfig.build("lobby", "hunter22hunter")

    assert net.ssid == "lobby"
    assert net.key_mgmt == :wpa_psk
  end

  test "builds an open network config" do
    assert %{vintage_net_wifi: %{networks: [%{key_mgmt: :none}]}} = WifiConfig.build("guest", nil)
  end
end
