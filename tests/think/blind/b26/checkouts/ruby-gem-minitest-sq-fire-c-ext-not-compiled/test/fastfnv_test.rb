# frozen_string_literal: true

require "test_helper"

class FastFNVTest < Minitest::Test
  def test_empty_string
    assert_equal 0x811c9dc5, FastFNV.fnv1a_32("")
  end

  def test_known_vector
    assert_equal 0xe40c292c, FastFNV.fnv1a_32("a")
  end
end
