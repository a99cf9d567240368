package admission.privileged

import rego.v1

import data.lib.k8s

deny contains msg if {
	input.request.kind.kind == "Pod"
	some c in k8s.containers(input.request.object.spec)
	c.securityContext.privileged
	msg := sprintf("container %q must not be privileged", [c.name])
}
