# frozen_string_literal: true

require_relative "lib/fastfnv/version"

Gem::Specification.new do |spec|
  spec.name = "fastfnv"
  spec.version = FastFNV::VERSION
  spec.authors = ["Teo Varga"]
  spec.summary = "FNV-1a hashes as a C extension"
  spec.license = "MIT"
  spec.required_ruby_version = ">= 3.0.0"
  spec.files = Dir["lib/**/*.rb", "ext/**/*.{c,h,rb}", "LICENSE.txt", "README.md"]
  spec.extensions = ["ext/fastfnv/extconf.rb"]
  spec.require_paths = ["lib"]
end
