# frozen_string_literal: true

require 'spec_helper'

describe 'sysctl_tuning' do
  on_supported_os.each do |os, os_facts|
    context "on #{os}" do
      let(:facts) { os_facts }

      it { is_expected.to compile.with_all_deps }

      context 'with profile => webserver' do
        let(:params) { { profile: 'webserver' } }

        it { is_expected.to contain_sysctl_tuning__setting('net.core.somaxconn').with_value(4096) }
      end
    end
  end
end
