# frozen_string_literal: true

require_relative "fastfnv/version"
require "fastfnv/fastfnv"
