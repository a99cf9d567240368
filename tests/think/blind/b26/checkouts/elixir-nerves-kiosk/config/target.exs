import Config

config :shoehorn, init: [:nerves_runtime, :nerves_pack]

config :vintage_net,
  regulatory_domain: "DE",
  config: [
    {"eth0", %{type: VintageNetEthernet, ipv4: %{method: :dhcp}}},
    {"wlan0", %{type: VintageNetWiFi}}
  ]

config :mdns_lite, hosts: [:hostname, "kiosk"], ttl: 120
