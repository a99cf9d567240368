require 'chefspec'
require 'chefspec/berkshelf'
