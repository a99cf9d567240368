# typed: strict
# frozen_string_literal: true

require "csv"

module Ledgerly
  module Exporters
    class CsvExporter
      extend T::Sig

      HEADERS = T.let(%w[number issued_on customer total_cents].freeze, T::Array[String])

      sig { params(invoices: T::Enumerable[Billing::Invoice]).void }
      def initialize(invoices)
        @invoices = invoices
      end

      sig { returns(String) }
      def call
        CSV.generate do |csv|
          csv << HEADERS
          @invoices.each do |inv|
            csv << [inv.number, inv.issued_on.iso8601, inv.customer_name, inv.total]
          end
        end
      end
    end
  end
end
