import Foundation

extension HTTPClient {
    func sendWithRetry(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        var attempt = 1
        while true {
            let (data, response) = try await send(request)
            guard retryPolicy.shouldRetry(statusCode: response.statusCode, attempt: attempt) else {
                return (data, response)
            }
            let delay = retryPolicy.delay(forAttempt: attempt)
            try await Task.sleep(nanoseconds: UInt64(delay * 1_000_000_000))
            attempt += 1
        }
    }
}
