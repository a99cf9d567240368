#!/usr/bin/env bash
set -euo pipefail
# unit tests evaluate with jsonnet, then server-side dry-run against the kind cluster
for f in tests/*_test.jsonnet; do jsonnet -J lib -J vendor "$f" > /dev/null && echo "ok $f"; done
tk export /tmp/mesh-out environments/dev --merge-strategy=replace-envs
kubectl --context kind-mesh apply --dry-run=server -R -f /tmp/mesh-out
