# shellcheck shell=bash
# days_left HOST[:PORT]
days_left() {
  local target=$1 end
  [[ $target == *:* ]] || target+=":443"
  end=$(echo | openssl s_client -connect "$target" -servername "${target%:*}" 2>/dev/null |
    openssl x509 -noout -enddate | cut -d= -f2)
  echo $(( ($(date -d "$end" +%s) - $(date +%s)) / 86400 ))
}
