# frozen_string_literal: true

require_relative "lib/lexiq/version"

Gem::Specification.new do |spec|
  spec.name = "lexiq"
  spec.version = Lexiq::VERSION
  spec.authors = ["Dana Okafor"]
  spec.email = ["dana@example.com"]

  spec.summary = "Tiny tokenizer and stemmer"
  spec.homepage = "https://github.com/dokafor/lexiq"
  spec.license = "MIT"
  spec.required_ruby_version = ">= 3.1.0"

  spec.metadata["source_code_uri"] = spec.homepage

  spec.files = Dir["lib/**/*.rb", "LICENSE.txt", "README.md"]
  spec.require_paths = ["lib"]
end
