import XCTest
@testable import Canopy

final class ShareControllerTests: XCTestCase {
    func testShareItemsContainPhotoData() throws {
        let photo = Photo.fixture(named: "fern.heic")
        let items = ShareController().activityItems(for: photo)
        XCTAssertEqual(items.count, 1)
        XCTAssertNotNil(items.first as? Data)
    }
}
