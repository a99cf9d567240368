# frozen_string_literal: true

require_relative "lib/rate_gate/version"

Gem::Specification.new do |spec|
  spec.name = "rate_gate"
  spec.version = RateGate::VERSION
  spec.authors = ["Dana Okafor"]
  spec.email = ["dana@example.com"]

  spec.summary = "Token-bucket rate limiting for Ruby"
  spec.homepage = "https://github.com/dokafor/rate_gate"
  spec.license = "MIT"
  spec.required_ruby_version = ">= 3.1.0"

  spec.metadata["source_code_uri"] = spec.homepage

  spec.files = Dir["lib/**/*.rb", "LICENSE.txt", "README.md"]
  spec.require_paths = ["lib"]
end
