# @summary One sysctl key persisted to /etc/sysctl.d
define sysctl_tuning::setting (
  Variant[String, Integer] $value,
) {
  $file = "/etc/sysctl.d/90-puppet-${regsubst($title, '\.', '_', 'G')}.conf"

  file { $file:
    ensure  => file,
    content => "${title} = ${value}\n",
    notify  => Exec["sysctl-apply-${title}"],
  }

  exec { "sysctl-apply-${title}":
    command     => "sysctl -p ${file}",
    path        => ['/usr/sbin', '/sbin', '/usr/bin', '/bin'],
    refreshonly => true,
  }
}
