package lib.k8s

import rego.v1

# every container in a pod spec, init and ephemeral included
containers(spec) := array.concat(
	array.concat(object.get(spec, "containers", []), object.get(spec, "initContainers", [])),
	object.get(spec, "ephemeralContainers", []),
)
