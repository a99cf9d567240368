#!/usr/bin/env bash
# CLMDAILY - nightly claims cycle (JCL-style step runner)
#   STEP010 CLMVAL  validate
#   STEP020 CLMPOST post accepted claims
#   STEP030 RPTGEN  control report
set -u
JOB=CLMDAILY; HLQ=${HLQ:-data}; LOG=logs/$JOB.sysout; MAXCC=0
mkdir -p logs; : > "$LOG"
step() { local s=$1 p=$2; shift 2
  echo "$(date +%H.%M.%S) $JOB $s $p STARTED" | tee -a "$LOG"
  env "$@" ./bin/$p >> "$LOG" 2>&1; rc=$?
  printf '%s %s %s %s COND CODE %04d\n' "$(date +%H.%M.%S)" $JOB $s $p $rc | tee -a "$LOG"
  [ $rc -gt $MAXCC ] && MAXCC=$rc
  return $rc; }
step STEP010 CLMVAL DD_CLMIN=$HLQ/in/CLAIMS.DAT DD_CLMOK=$HLQ/work/CLAIMS.OK DD_CLMREJ=$HLQ/out/CLAIMS.REJ || { echo "$JOB ENDED - MAXCC=$(printf %04d $MAXCC)"; exit $MAXCC; }
step STEP020 CLMPOST DD_CLMOK=$HLQ/work/CLAIMS.OK DD_POSTED=$HLQ/out/POSTED.DAT || { echo "$JOB ENDED - MAXCC=$(printf %04d $MAXCC)"; exit $MAXCC; }
step STEP030 RPTGEN DD_POSTED=$HLQ/out/POSTED.DAT DD_RPTOUT=$HLQ/out/CTLRPT.TXT
echo "$JOB ENDED - MAXCC=$(printf %04d $MAXCC)"; exit $MAXCC
