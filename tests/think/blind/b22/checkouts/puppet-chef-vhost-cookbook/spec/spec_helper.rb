require 'chefspec'
require 'chefspec/policyfile'
