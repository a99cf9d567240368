name 'nginx_vhosts'
default_source :supermarket
run_list 'nginx_vhosts::test'
cookbook 'nginx_vhosts', path: '.'
