#!/usr/bin/env bash
# Headless automation tests. Usage: Scripts/test.sh [Filter]   e.g. Scripts/test.sh Hollowmere.Loot
set -eo pipefail
UE_ROOT="${UE_ROOT:-$HOME/UnrealEngine}"
FILTER="${1:-Hollowmere}"
"$UE_ROOT/Engine/Binaries/Linux/UnrealEditor-Cmd" "$PWD/Hollowmere.uproject" \
  -ExecCmds="Automation RunTests $FILTER; Quit" -TestExit="Automation Test Queue Empty" \
  -unattended -nullrhi -nosplash -NoP4 -stdout -FullStdOutLogOutput 2>&1 \
  | grep -E "Test Completed|LogAutomationController: Error|TEST COMPLETE"
