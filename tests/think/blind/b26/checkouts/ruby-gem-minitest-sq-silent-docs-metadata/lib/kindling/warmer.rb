# frozen_string_literal: true

module Kindling
  class Warmer
    def initialize
      @blocks = {}
    end

    def register(name, &block)
      @blocks[name] = block
    end

    def run
      @blocks.each_value(&:call)
    end
  end
end
