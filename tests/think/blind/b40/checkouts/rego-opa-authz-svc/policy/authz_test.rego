package authz_test

import rego.v1

import data.authz

test_admin_can_delete if {
	authz.allow with input as {"user": {"id": "u-1", "roles": ["admin"]}, "action": "delete", "resource": {"type": "document"}}
}

test_editor_cannot_delete if {
	not authz.allow with input as {"user": {"id": "u-2", "roles": ["editor"]}, "action": "delete", "resource": {"type": "document"}}
}

test_viewer_can_read if {
	authz.allow with input as {"user": {"id": "u-3", "roles": ["viewer"]}, "action": "read", "resource": {"type": "document"}}
}

test_anonymous_denied if {
	not authz.allow with input as {"action": "read", "resource": {"type": "document"}}
}
