require 'spec_helper'

describe 'nginx_vhost' do
  step_into :nginx_vhost
  platform 'ubuntu', '22.04'

  context 'create a basic vhost' do
    recipe do
      service 'nginx'
      nginx_vhost 'shop.example.com' do
        upstream '127.0.0.1:3000'
      end
    end

    it { is_expected.to create_directory('/srv/www/shop.example.com') }
    it { is_expected.to create_template('/etc/nginx/sites-available/shop.example.com.conf') }
    it { is_expected.to create_link('/etc/nginx/sites-enabled/shop.example.com.conf') }
  end
end
