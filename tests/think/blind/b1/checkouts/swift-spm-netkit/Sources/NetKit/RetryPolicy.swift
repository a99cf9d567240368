import Foundation

public struct RetryPolicy: Sendable {
    public enum Strategy: Sendable, Equatable {
        case fixed(interval: TimeInterval)
    }

    public var maxAttempts: Int
    public var strategy: Strategy
    public var retryableStatusCodes: Set<Int>

    public init(
        maxAttempts: Int = 3,
        strategy: Strategy = .fixed(interval: 1.0),
        retryableStatusCodes: Set<Int> = [408, 429, 500, 502, 503, 504]
    ) {
        self.maxAttempts = maxAttempts
        self.strategy = strategy
        self.retryableStatusCodes = retryableStatusCodes
    }

    public func delay(forAttempt attempt: Int) -> TimeInterval {
        switch strategy {
        case .fixed(let interval):
            return interval
        }
    }

    public func shouldRetry(statusCode: Int, attempt: Int) -> Bool {
        attempt < maxAttempts && retryableStatusCodes.contains(statusCode)
    }
}
