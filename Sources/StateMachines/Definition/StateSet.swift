/// A set of state indices as bits: the first 64 in a word kept inline, so that a chart of up to
/// 64 states computes its exit and entry sets without touching the heap.
@usableFromInline
struct StateSet: Hashable, Sendable {
    @usableFromInline var low: UInt64 = 0
    @usableFromInline var high: [UInt64]

    /// An empty set able to hold indices `0 ..< count`.
    @usableFromInline
    init(count: Int) {
        high = count > 64 ? Array(repeating: 0, count: (count - 64 + 63) / 64) : []
    }

    @inlinable
    func contains(_ index: Int) -> Bool {
        if index < 64 { return low & (1 &<< UInt64(index)) != 0 }
        let word = (index &- 64) / 64
        return word < high.count && high[word] & (1 &<< UInt64((index &- 64) % 64)) != 0
    }

    @inlinable
    mutating func insert(_ index: Int) {
        if index < 64 {
            low |= 1 &<< UInt64(index)
        } else {
            high[(index &- 64) / 64] |= 1 &<< UInt64((index &- 64) % 64)
        }
    }

    @inlinable
    mutating func remove(_ index: Int) {
        if index < 64 {
            low &= ~(1 &<< UInt64(index))
        } else {
            high[(index &- 64) / 64] &= ~(1 &<< UInt64((index &- 64) % 64))
        }
    }

    @inlinable
    var isEmpty: Bool {
        low == 0 && !high.contains { $0 != 0 }
    }

    @inlinable
    func intersection(_ other: StateSet) -> StateSet {
        var result = self
        result.low &= other.low
        for word in result.high.indices { result.high[word] &= other.high[word] }
        return result
    }

    @inlinable
    func intersects(_ other: StateSet) -> Bool {
        if low & other.low != 0 { return true }
        for word in high.indices where high[word] & other.high[word] != 0 { return true }
        return false
    }

    @inlinable
    mutating func formUnion(_ other: StateSet) {
        low |= other.low
        for word in high.indices { high[word] |= other.high[word] }
    }

    @inlinable
    mutating func subtract(_ other: StateSet) {
        low &= ~other.low
        for word in high.indices { high[word] &= ~other.high[word] }
    }

    /// The lowest index in the set, or `nil`.
    @inlinable
    var first: Int? {
        if low != 0 { return low.trailingZeroBitCount }
        for word in high.indices where high[word] != 0 { return 64 + word * 64 + high[word].trailingZeroBitCount }
        return nil
    }

    /// Calls `body` with each index in ascending order: document order.
    @inlinable
    func forEachAscending(_ body: (Int) -> Void) {
        var bits = low
        while bits != 0 {
            body(bits.trailingZeroBitCount)
            bits &= bits &- 1
        }
        for word in high.indices {
            var bits = high[word]
            while bits != 0 {
                body(64 + word * 64 + bits.trailingZeroBitCount)
                bits &= bits &- 1
            }
        }
    }

    /// Calls `body` with each index in descending order: reverse document order, so that a
    /// state's descendants come before it.
    @inlinable
    func forEachDescending(_ body: (Int) -> Void) {
        for word in high.indices.reversed() {
            var bits = high[word]
            while bits != 0 {
                let bit = 63 - bits.leadingZeroBitCount
                body(64 + word * 64 + bit)
                bits &= ~(1 &<< UInt64(bit))
            }
        }
        var bits = low
        while bits != 0 {
            let bit = 63 - bits.leadingZeroBitCount
            body(bit)
            bits &= ~(1 &<< UInt64(bit))
        }
    }

    /// The indices in ascending order.
    var indices: [Int] {
        var result: [Int] = []
        forEachAscending { result.append($0) }
        return result
    }
}
