import XCTest
@testable import Harbor

final class BookingStoreTests: XCTestCase {
    private var tmp: URL!

    override func setUpWithError() throws {
        tmp = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
    }

    func testEmptyStoreHasNoBookings() {
        XCTAssertTrue(BookingStore(cacheDirectory: tmp).bookings.isEmpty)
    }

    func testLoadsCachedBookings() throws {
        let store = BookingStore(cacheDirectory: tmp)
        try store.loadCached()
        XCTAssertEqual(store.bookings, [])
    }
}
