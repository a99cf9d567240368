@testable import App
import XCTVapor
import Fluent

final class TodoTests: XCTestCase {
    var app: Application!

    override func setUp() async throws {
        self.app = try await Application.make(.testing)
        try await configure(app)
        try await app.autoMigrate()
    }

    override func tearDown() async throws {
        try await app.autoRevert()
        try await self.app.asyncShutdown()
        self.app = nil
    }

    func testIndex() async throws {
        let sample = [Todo(title: "sample1"), Todo(title: "sample2")]
        try await sample.create(on: self.app.db)

        try await self.app.test(.GET, "todos", afterResponse: { res async throws in
            XCTAssertEqual(res.status, .ok)
            XCTAssertEqual(try res.content.decode([TodoDTO].self).count, 2)
        })
    }

    func testCreateTodo() async throws {
        let newDTO = TodoDTO(id: nil, title: "test")

        try await self.app.test(.POST, "todos", beforeRequest: { req in
            try req.content.encode(newDTO)
        }, afterResponse: { res async throws in
            XCTAssertEqual(res.status, .ok)
            let models = try await Todo.query(on: self.app.db).all()
            XCTAssertEqual(models.map { $0.toDTO().title }, [newDTO.title])
        })
    }

    func testDeleteTodo() async throws {
        let testTodos = [Todo(title: "test1"), Todo(title: "test2")]
        try await testTodos.create(on: app.db)

        try await self.app.test(.DELETE, "todos/\(testTodos[0].requireID())", afterResponse: { res async throws in
            XCTAssertEqual(res.status, .noContent)
            let model = try await Todo.find(testTodos[0].id, on: self.app.db)
            XCTAssertNil(model)
        })
    }
}
