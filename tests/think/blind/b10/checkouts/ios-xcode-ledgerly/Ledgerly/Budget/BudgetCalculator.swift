import Foundation

struct BudgetCalculator {
    let categories: [BudgetCategory]
    let transactions: [Transaction]

    func remaining(for category: BudgetCategory, in month: Month) -> Decimal {
        let spent = transactions
            .filter { $0.categoryID == category.id && month.contains($0.date) }
            .reduce(Decimal.zero) { $0 + $1.amount }
        return category.monthlyLimit - spent
    }
}
