# frozen_string_literal: true

require 'spec_helper'

describe 'sysctl_tuning::setting' do
  let(:title) { 'vm.swappiness' }
  let(:params) { { value: 10 } }

  it { is_expected.to contain_file('/etc/sysctl.d/90-puppet-vm_swappiness.conf').with_content("vm.swappiness = 10\n") }
  it { is_expected.to contain_exec('sysctl-apply-vm.swappiness').with_refreshonly(true) }
end
