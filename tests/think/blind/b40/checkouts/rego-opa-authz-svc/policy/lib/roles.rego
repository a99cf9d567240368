package lib.roles

import rego.v1

has_role(user, r) if r in user.roles
