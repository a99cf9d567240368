require "csv"

module Csvkit
  class Dedupe
    def initialize(@key_columns : Array(String))
    end

    def run(input : IO, output : IO)
      seen = Set(Array(String)).new
      csv = CSV.new(input, headers: true)
      builder = CSV::Builder.new(output)
      builder.row csv.headers
      csv.each do |row|
        key = @key_columns.map { |c| row[c] }
        next if seen.includes?(key)
        seen << key
        builder.row row.row.to_a
      end
    end
  end
end
