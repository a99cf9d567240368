import Foundation

public final class MemoryCache<Key: Hashable, Value>: @unchecked Sendable {
    private struct Entry {
        let value: Value
        let cost: Int
    }

    private var storage: [Key: Entry] = [:]
    private let lock = NSLock()
    public let totalCostLimit: Int
    public private(set) var totalCost = 0

    public init(totalCostLimit: Int) {
        self.totalCostLimit = totalCostLimit
    }

    public func value(forKey key: Key) -> Value? {
        lock.lock(); defer { lock.unlock() }
        return storage[key]?.value
    }

    public func set(_ value: Value, forKey key: Key, cost: Int) {
        lock.lock(); defer { lock.unlock() }
        if let old = storage[key] { totalCost -= old.cost }
        storage[key] = Entry(value: value, cost: cost)
        totalCost += cost
    }

    public func removeAll() {
        lock.lock(); defer { lock.unlock() }
        storage.removeAll()
        totalCost = 0
    }
}
