import Fluent
import struct Foundation.UUID

final class Todo: Model, @unchecked Sendable {
    static let schema = "todos"

    @ID(key: .id)
    var id: UUID?

    @Field(key: "title")
    var title: String

    @Field(key: "is_done")
    var isDone: Bool

    init() { }

    init(id: UUID? = nil, title: String, isDone: Bool = false) {
        self.id = id
        self.title = title
        self.isDone = isDone
    }

    func toDTO() -> TodoDTO {
        .init(id: self.id, title: self.$title.value, isDone: self.$isDone.value)
    }
}
