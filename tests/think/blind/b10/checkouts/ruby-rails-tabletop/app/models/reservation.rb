class Reservation < ApplicationRecord
  belongs_to :table
  belongs_to :guest

  validates :party_size, numericality: { greater_than: 0 }
  validate :fits_table

  private

  def fits_table
    errors.add(:party_size, "exceeds table capacity") if table && party_size.to_i > table.seats
  end
end
