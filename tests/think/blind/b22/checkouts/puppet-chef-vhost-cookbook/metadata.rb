name              'nginx_vhosts'
maintainer        'Web Platform'
maintainer_email  'web-platform@example.com'
license           'Apache-2.0'
description       'Custom resource for nginx virtual hosts'
version           '2.4.1'
chef_version      '>= 17.0'

depends 'nginx', '~> 12.2'

supports 'ubuntu', '>= 20.04'
supports 'rocky', '>= 8.0'
