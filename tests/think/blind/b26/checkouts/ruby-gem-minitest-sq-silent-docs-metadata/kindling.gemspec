# frozen_string_literal: true

require_relative "lib/kindling/version"

Gem::Specification.new do |spec|
  spec.name = "kindling"
  spec.version = Kindling::VERSION
  spec.authors = ["Dana Okafor"]
  spec.email = ["dana@example.com"]

  spec.summary = "Warm up Rails caches on boot"
  spec.homepage = "https://github.com/dokafor/kindling"
  spec.license = "MIT"
  spec.required_ruby_version = ">= 3.1.0"

  spec.metadata["source_code_uri"] = spec.homepage

  spec.files = Dir["lib/**/*.rb", "LICENSE.txt", "README.md"]
  spec.require_paths = ["lib"]
end
