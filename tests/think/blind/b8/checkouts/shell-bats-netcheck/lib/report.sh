# shellcheck shell=bash
report_text() {
  local file=${1:-hosts.txt} host rc
  while read -r host; do
    [[ -z $host || $host == \#* ]] && continue
    if probe_one "$host"; then rc=up; else rc=down; fi
    printf '%-30s %s\n' "$host" "$rc"
  done < "$file"
}
