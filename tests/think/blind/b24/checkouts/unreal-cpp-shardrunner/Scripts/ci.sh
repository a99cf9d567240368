#!/usr/bin/env bash
# What CI runs on every push: build the editor target, then the full automation suite.
set -euo pipefail
: "${UE_ROOT:?set UE_ROOT to the engine checkout}"
echo "==> Building ShardRunnerEditor"
"$UE_ROOT/Engine/Build/BatchFiles/Linux/Build.sh" ShardRunnerEditor Linux Development \
  -Project="$(pwd)/ShardRunner.uproject" -WaitMutex
echo "==> Running automation tests"
"$(dirname "$0")/run_tests.sh" ShardRunner
echo "==> CI OK"
