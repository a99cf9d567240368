import XCTest
@testable import NetKit

final class RetryPolicyTests: XCTestCase {
    func testFixedDelayIsConstant() {
        let policy = RetryPolicy(strategy: .fixed(interval: 0.5))
        XCTAssertEqual(policy.delay(forAttempt: 1), 0.5)
        XCTAssertEqual(policy.delay(forAttempt: 3), 0.5)
    }

    func testDoesNotRetryPastMaxAttempts() {
        let policy = RetryPolicy(maxAttempts: 2)
        XCTAssertTrue(policy.shouldRetry(statusCode: 503, attempt: 1))
        XCTAssertFalse(policy.shouldRetry(statusCode: 503, attempt: 2))
    }

    func testDoesNotRetryClientErrors() {
        XCTAssertFalse(RetryPolicy().shouldRetry(statusCode: 404, attempt: 1))
    }
}
