import XCTest
@testable import Bloom

final class GiftNoteViewModelTests: XCTestCase {
    func testStartsEmpty() {
        XCTAssertEqual(GiftNoteViewModel().text, "")
    }
}
