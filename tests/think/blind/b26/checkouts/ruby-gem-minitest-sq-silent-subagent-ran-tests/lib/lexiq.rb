# frozen_string_literal: true

require_relative "lexiq/version"
require_relative "lexiq/tokenizer"
