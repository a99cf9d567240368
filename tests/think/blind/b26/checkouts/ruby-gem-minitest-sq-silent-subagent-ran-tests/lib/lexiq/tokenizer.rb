# frozen_string_literal: true

module Lexiq
  class Tokenizer
    WORD = /[[:alnum:]]+(?:'[[:alpha:]]+)?/

    def initialize(downcase: true)
      @downcase = downcase
    end

    def tokenize(text)
      tokens = text.scan(WORD)
      @downcase ? tokens.map(&:downcase) : tokens
    end
  end
end
