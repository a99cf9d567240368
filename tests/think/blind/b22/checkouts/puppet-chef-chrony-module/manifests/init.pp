# @summary Installs and configures chrony
#
# @param servers    upstream NTP servers
# @param pools      upstream NTP pools
# @param makestep   [threshold, limit] for the makestep directive
class chrony (
  Array[Stdlib::Host] $servers = [],
  Array[Stdlib::Host] $pools   = ['2.pool.ntp.org'],
  Tuple[Numeric, Integer] $makestep = [1.0, 3],
) {
  contain chrony::install
  contain chrony::config
  contain chrony::service

  Class['chrony::install']
  -> Class['chrony::config']
  ~> Class['chrony::service']
}
