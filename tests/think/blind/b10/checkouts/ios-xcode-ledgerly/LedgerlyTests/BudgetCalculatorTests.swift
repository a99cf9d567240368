import XCTest
@testable import Ledgerly

final class BudgetCalculatorTests: XCTestCase {
    private let groceries = BudgetCategory(id: "groceries", name: "Groceries", monthlyLimit: 400)

    func testRemainingSubtractsSpendingInMonth() {
        let march = Month(year: 2026, month: 3)
        let calc = BudgetCalculator(
            categories: [groceries],
            transactions: [.fixture(category: "groceries", amount: 120, on: "2026-03-04"),
                           .fixture(category: "groceries", amount: 80, on: "2026-03-19"),
                           .fixture(category: "groceries", amount: 50, on: "2026-04-01")]
        )
        XCTAssertEqual(calc.remaining(for: groceries, in: march), 200)
    }

    func testRemainingCanGoNegative() {
        let calc = BudgetCalculator(categories: [groceries],
                                    transactions: [.fixture(category: "groceries", amount: 450, on: "2026-03-10")])
        XCTAssertEqual(calc.remaining(for: groceries, in: Month(year: 2026, month: 3)), -50)
    }
}
