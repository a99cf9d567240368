package admission.privileged_test

import rego.v1

import data.admission.privileged

pod(spec) := {"request": {"kind": {"kind": "Pod"}, "object": {"spec": spec}}}

test_deny_privileged if {
	count(privileged.deny) == 1 with input as pod({"containers": [{"name": "app", "securityContext": {"privileged": true}}]})
}

test_allow_unprivileged if {
	count(privileged.deny) == 0 with input as pod({"containers": [{"name": "app"}]})
}
