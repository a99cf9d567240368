# @summary Applies a sysctl tuning profile
#
# @param profile   Which tuning profile to apply
# @param overrides Extra key => value pairs merged over the profile
class sysctl_tuning (
  Enum['default', 'webserver', 'database'] $profile = 'default',
  Hash[String, Variant[String, Integer]] $overrides = {},
) {
  $base = $profile ? {
    'webserver' => {
      'net.core.somaxconn'           => 4096,
      'net.ipv4.tcp_max_syn_backlog' => 8192,
    },
    'database'  => {
      'vm.swappiness'         => 1,
      'vm.dirty_ratio'        => 15,
    },
    default     => {},
  }

  ($base + $overrides).each |$key, $value| {
    sysctl_tuning::setting { $key:
      value => $value,
    }
  }
}
