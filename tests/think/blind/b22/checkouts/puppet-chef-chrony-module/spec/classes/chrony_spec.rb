# frozen_string_literal: true

require 'spec_helper'

describe 'chrony' do
  on_supported_os.each do |os, os_facts|
    context "on #{os}" do
      let(:facts) { os_facts }

      it { is_expected.to compile.with_all_deps }
      it { is_expected.to contain_class('chrony::config') }

      context 'with servers' do
        let(:params) { { servers: ['ntp1.example.com'] } }

        config = os_facts[:os]['family'] == 'Debian' ? '/etc/chrony/chrony.conf' : '/etc/chrony.conf'
        it { is_expected.to contain_file(config).with_content(%r{^server ntp1\.example\.com iburst$}) }
      end
    end
  end
end
