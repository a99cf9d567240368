module github.com/acme/fleetctl

go 1.23

require (
	github.com/spf13/cobra v1.8.1
	gopkg.in/yaml.v3 v3.0.1
)
