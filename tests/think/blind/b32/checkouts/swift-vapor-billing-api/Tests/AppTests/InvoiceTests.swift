@testable import App
import XCTVapor

final class InvoiceTests: XCTestCase {
    var app: Application!

    override func setUp() async throws {
        app = try await Application.make(.testing)
        try await configure(app)
        try await app.autoMigrate()
    }

    override func tearDown() async throws {
        try await app.autoRevert()
        try await app.asyncShutdown()
    }

    func testTotalSingleLine() async throws {
        let invoice = try await Invoice.seed(on: app.db, taxRate: 0.2, lines: [("Widget", 1, 10)])
        try await app.test(.GET, "invoices/\(invoice.requireID())/total") { res async throws in
            XCTAssertEqual(res.status, .ok)
            let total = try res.content.decode(InvoiceTotal.self)
            XCTAssertEqual(total.total, 12)
        }
    }

    func testMissingInvoiceIs404() async throws {
        try await app.test(.GET, "invoices/\(UUID())/total") { res async in
            XCTAssertEqual(res.status, .notFound)
        }
    }
}
