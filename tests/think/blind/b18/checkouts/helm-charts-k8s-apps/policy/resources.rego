package main

deny[msg] {
  input.kind == "StatefulSet"
  c := input.spec.template.spec.containers[_]
  not c.resources.limits.cpu
  msg := sprintf("%s/%s: container '%s' must set resources.limits.cpu", [input.kind, input.metadata.name, c.name])
}
