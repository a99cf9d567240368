unified_mode true
provides :nginx_vhost

property :server_name, String, name_property: true
property :aliases, Array, default: []
property :root, String, default: lazy { "/srv/www/#{server_name}" }
property :port, Integer, default: 80
property :upstream, String

action :create do
  directory new_resource.root do
    recursive true
    owner 'www-data'
  end

  template "/etc/nginx/sites-available/#{new_resource.server_name}.conf" do
    cookbook 'nginx_vhosts'
    source 'vhost.conf.erb'
    variables(
      server_name: new_resource.server_name,
      aliases: new_resource.aliases,
      root: new_resource.root,
      port: new_resource.port,
      upstream: new_resource.upstream
    )
    notifies :reload, 'service[nginx]', :delayed
  end

  link "/etc/nginx/sites-enabled/#{new_resource.server_name}.conf" do
    to "/etc/nginx/sites-available/#{new_resource.server_name}.conf"
  end
end

action :delete do
  file "/etc/nginx/sites-available/#{new_resource.server_name}.conf" do
    action :delete
  end
  link "/etc/nginx/sites-enabled/#{new_resource.server_name}.conf" do
    action :delete
  end
end
