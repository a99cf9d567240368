require 'spec_helper'

describe 'mariadb_server::default' do
  platform 'ubuntu', '22.04'

  it { is_expected.to install_package(%w(mariadb-server mariadb-client)) }
  it { is_expected.to create_template('/etc/mysql/mariadb.conf.d/60-tuning.cnf') }
  it { is_expected.to enable_service('mariadb') }
end
