# frozen_string_literal: true

require "test_helper"

class Lexiq::TokenizerTest < Minitest::Test
  def test_splits_on_punctuation
    assert_equal %w[hello world], Lexiq::Tokenizer.new.tokenize("Hello, world!")
  end

  def test_keeps_contractions
    assert_equal %w[don't stop], Lexiq::Tokenizer.new.tokenize("Don't stop")
  end
end
