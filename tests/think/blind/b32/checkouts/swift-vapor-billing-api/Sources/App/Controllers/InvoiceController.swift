import Fluent
import Vapor

struct InvoiceController: RouteCollection {
    func boot(routes: RoutesBuilder) throws {
        let invoices = routes.grouped("invoices")
        invoices.get(":invoiceID", use: show)
        invoices.get(":invoiceID", "total", use: total)
    }

    @Sendable
    func show(req: Request) async throws -> InvoiceDTO {
        let invoice = try await findInvoice(req)
        return try invoice.toDTO()
    }

    @Sendable
    func total(req: Request) async throws -> InvoiceTotal {
        let invoice = try await findInvoice(req)
        let lines = try await invoice.$lines.get(on: req.db)
        let subtotal = lines.reduce(Decimal.zero) { $0 + $1.unitPrice }
        let tax = subtotal * invoice.taxRate
        return InvoiceTotal(subtotal: subtotal, tax: tax, total: subtotal + tax)
    }

    private func findInvoice(_ req: Request) async throws -> Invoice {
        guard let invoice = try await Invoice.find(req.parameters.get("invoiceID"), on: req.db) else {
            throw Abort(.notFound, reason: "invoice not found")
        }
        return invoice
    }
}
