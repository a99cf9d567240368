package %w(mariadb-server mariadb-client)

template '/etc/mysql/mariadb.conf.d/60-tuning.cnf' do
  source 'tuning.cnf.erb'
  variables(
    bind_address: node['mariadb_server']['bind_address'],
    buffer_pool: MariadbServer::Helpers.buffer_pool_size(node)
  )
  notifies :restart, 'service[mariadb]', :delayed
end

service 'mariadb' do
  action [:enable, :start]
end
