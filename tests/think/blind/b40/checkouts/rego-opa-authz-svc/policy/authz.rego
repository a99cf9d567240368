package authz

import rego.v1

import data.lib.roles

default allow := false

allow if {
	roles.has_role(input.user, "admin")
}

allow if {
	input.action in {"read", "update"}
	roles.has_role(input.user, "editor")
}

allow if {
	input.action == "read"
	roles.has_role(input.user, "viewer")
}
