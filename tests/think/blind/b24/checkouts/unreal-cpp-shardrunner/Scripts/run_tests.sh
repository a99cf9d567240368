#!/usr/bin/env bash
# Runs automation tests headless. Usage: Scripts/run_tests.sh [filter]   (default: ShardRunner)
set -euo pipefail
FILTER="${1:-ShardRunner}"
"$UE_ROOT/Engine/Binaries/Linux/UnrealEditor-Cmd" "$(pwd)/ShardRunner.uproject" \
  -ExecCmds="Automation RunTests ${FILTER}; Quit" -unattended -nullrhi -nosplash -nosound -NoP4 \
  -ReportExportPath="$(pwd)/Saved/Automation/Reports" -log
