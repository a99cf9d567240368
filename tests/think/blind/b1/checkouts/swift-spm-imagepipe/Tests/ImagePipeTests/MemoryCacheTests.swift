import XCTest
@testable import ImagePipe

final class MemoryCacheTests: XCTestCase {
    func testStoresAndReturnsValue() {
        let cache = MemoryCache<String, Int>(totalCostLimit: 100)
        cache.set(42, forKey: "a", cost: 10)
        XCTAssertEqual(cache.value(forKey: "a"), 42)
    }

    func testReplacingValueUpdatesTotalCost() {
        let cache = MemoryCache<String, Int>(totalCostLimit: 100)
        cache.set(1, forKey: "a", cost: 10)
        cache.set(2, forKey: "a", cost: 30)
        XCTAssertEqual(cache.totalCost, 30)
    }

    func testRemoveAllResetsCost() {
        let cache = MemoryCache<String, Int>(totalCostLimit: 100)
        cache.set(1, forKey: "a", cost: 10)
        cache.removeAll()
        XCTAssertEqual(cache.totalCost, 0)
        XCTAssertNil(cache.value(forKey: "a"))
    }
}
