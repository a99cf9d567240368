#!/usr/bin/env bash
# NIGHTLY - JCL-style batch stream. Each step maps DD names to files via DD_<name> env vars.
export DD_CUSTMAST=${DATA:-./data}/CUSTMAST.DAT
export DD_TRANSIN=${DATA:-./data}/in/TRANS.DAT
export DD_POSTOUT=${DATA:-./data}/out/POSTED.DAT
LOG=logs/nightly.log
step() { echo "$(date +%T) $1 START" >> $LOG; "$2" >> $LOG 2>&1; rc=$?; echo "$1 ENDED RC=$(printf %04d $rc)"; return $rc; }
step STEP010 bin/SORTTRAN || exit 12
step STEP020 bin/POSTTRAN || { echo "JOB NIGHTLY ABENDED - MAXCC=0012 - see $LOG"; exit 12; }
step STEP030 bin/RPTDAILY || exit 8
echo "JOB NIGHTLY ENDED - MAXCC=0000"
