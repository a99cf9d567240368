# @summary chrony.conf
# @api private
class chrony::config {
  assert_private()

  $config_file = $facts['os']['family'] ? {
    'Debian' => '/etc/chrony/chrony.conf',
    default  => '/etc/chrony.conf',
  }

  file { $config_file:
    ensure  => file,
    owner   => 'root',
    group   => 'root',
    mode    => '0644',
    content => epp('chrony/chrony.conf.epp', {
      'servers'  => $chrony::servers,
      'pools'    => $chrony::pools,
      'makestep' => $chrony::makestep,
    }),
  }
}
