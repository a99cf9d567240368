import XCTest
@testable import Canopy

final class AlbumOrderingTests: XCTestCase {
    func testRecentAlbumsAreSortedNewestFirst() {
        let store = AlbumStore()
        store.insert(.fixture(name: "Summer", updated: "2025-08-01"))
        store.insert(.fixture(name: "Spring", updated: "2026-04-01"))
        store.insert(.fixture(name: "Winter", updated: "2026-01-15"))
        XCTAssertEqual(store.recent.map(\.name), ["Spring", "Winter", "Summer"])
    }
}
