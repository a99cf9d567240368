package admission.hostpath

import rego.v1

import data.lib.k8s

deny contains msg if {
	input.request.kind.kind == "Pod"
	some v in input.request.object.spec.volumes
	v.hostPath
	some c in k8s.containers(input.request.object.spec)
	some m in c.volumeMounts
	m.name == v.name
	msg := sprintf("container %q mounts hostPath volume %q", [c.name, v.name])
}
