/// A set of state indices as bits, inline: up to ``capacity`` states, no heap, no reference
/// counting, so that a step computes exit and entry sets at the cost of a few word operations.
/// The first word is handled apart, so that a chart of up to 64 states touches only it.
@usableFromInline
package struct StateSet: Hashable, Sendable {
    /// The most states a statechart can have (a flat machine has no limit).
    @usableFromInline package static let capacity = 512

    @usableFromInline package var low: UInt64 = 0
    @usableFromInline package var rest: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0)
    /// How many words of `rest` the definition uses.
    @usableFromInline package var extra: Int = 0

    /// An empty set able to hold indices `0 ..< min(count, capacity)`.
    @inlinable
    package init(count: Int) {
        extra = Swift.min(7, Swift.max(0, (count - 1) / 64))
    }

    @inlinable
    package func word(_ index: Int) -> UInt64 {
        withUnsafeBytes(of: rest) { $0.load(fromByteOffset: index &* 8, as: UInt64.self) }
    }

    @inlinable
    package mutating func setWord(_ index: Int, _ value: UInt64) {
        withUnsafeMutableBytes(of: &rest) { $0.storeBytes(of: value, toByteOffset: index &* 8, as: UInt64.self) }
    }

    @inlinable
    @inline(__always)
    package func contains(_ index: Int) -> Bool {
        if index < 64 { return index >= 0 && low & (1 &<< UInt64(index)) != 0 }
        let position = (index &- 64) / 64
        return position < extra && word(position) & (1 &<< UInt64((index &- 64) % 64)) != 0
    }

    @inlinable
    @inline(__always)
    package mutating func insert(_ index: Int) {
        if index < 64 {
            if index >= 0 { low |= 1 &<< UInt64(index) }
            return
        }
        let position = (index &- 64) / 64
        guard position < extra else { return }
        setWord(position, word(position) | 1 &<< UInt64((index &- 64) % 64))
    }

    @inlinable
    @inline(__always)
    package mutating func remove(_ index: Int) {
        if index < 64 {
            if index >= 0 { low &= ~(1 &<< UInt64(index)) }
            return
        }
        let position = (index &- 64) / 64
        guard position < extra else { return }
        setWord(position, word(position) & ~(1 &<< UInt64((index &- 64) % 64)))
    }

    /// Becomes `other`, a set of the same capacity: a chart of up to 64 states copies one word.
    @inlinable
    package mutating func assign(_ other: StateSet) {
        low = other.low
        if extra > 0 { rest = other.rest }
    }

    @inlinable
    package var isEmpty: Bool {
        if low != 0 { return false }
        var position = 0
        while position < extra {
            if word(position) != 0 { return false }
            position &+= 1
        }
        return true
    }

    @inlinable
    @inline(__always)
    package func intersection(_ other: StateSet) -> StateSet {
        var result = self
        result.low &= other.low
        if extra != 0 { result.intersectRest(with: other) }
        return result
    }

    /// The words past the first of ``intersection(_:)``, out of line: most charts have none.
    @inlinable
    @inline(never)
    package mutating func intersectRest(with other: StateSet) {
        var position = 0
        while position < extra {
            setWord(position, word(position) & other.word(position))
            position &+= 1
        }
    }

    @inlinable
    @inline(__always)
    package func intersects(_ other: StateSet) -> Bool {
        if low & other.low != 0 { return true }
        if extra == 0 { return false }
        var position = 0
        while position < extra {
            if word(position) & other.word(position) != 0 { return true }
            position &+= 1
        }
        return false
    }

    @inlinable
    package mutating func formUnion(_ other: StateSet) {
        low |= other.low
        if extra == 0 { return }
        var position = 0
        while position < extra {
            setWord(position, word(position) | other.word(position))
            position &+= 1
        }
    }

    @inlinable
    package mutating func subtract(_ other: StateSet) {
        low &= ~other.low
        var position = 0
        while position < extra {
            setWord(position, word(position) & ~other.word(position))
            position &+= 1
        }
    }

    /// The lowest index in the set, or `nil`.
    @inlinable
    @inline(__always)
    package var first: Int? {
        if low != 0 { return low.trailingZeroBitCount }
        var position = 0
        while position < extra {
            let bits = word(position)
            if bits != 0 { return 64 &+ position &* 64 &+ bits.trailingZeroBitCount }
            position &+= 1
        }
        return nil
    }

    /// Removes and returns the lowest index, or `nil` when the set is empty: a loop over a set in
    /// document order without a closure, so that what the loop captures is never copied.
    @inlinable
    @inline(__always)
    package mutating func popFirst() -> Int? {
        if low != 0 {
            let index = low.trailingZeroBitCount
            low &= low &- 1
            return index
        }
        return extra == 0 ? nil : popFirstOfRest()
    }

    /// ``popFirst()`` past the first word, out of line: most charts have none.
    @inlinable
    @inline(never)
    package mutating func popFirstOfRest() -> Int? {
        var position = 0
        while position < extra {
            let bits = word(position)
            if bits != 0 {
                setWord(position, bits & (bits &- 1))
                return 64 &+ position &* 64 &+ bits.trailingZeroBitCount
            }
            position &+= 1
        }
        return nil
    }

    /// Calls `body` with each index in ascending order: document order.
    @inlinable
    package func forEachAscending(_ body: (Int) -> Void) {
        var bits = low
        while bits != 0 {
            body(bits.trailingZeroBitCount)
            bits &= bits &- 1
        }
        var position = 0
        while position < extra {
            var bits = word(position)
            while bits != 0 {
                body(64 &+ position &* 64 &+ bits.trailingZeroBitCount)
                bits &= bits &- 1
            }
            position &+= 1
        }
    }

    /// Calls `body` with each index in descending order: reverse document order, so that a
    /// state's descendants come before it.
    @inlinable
    package func forEachDescending(_ body: (Int) -> Void) {
        var position = extra &- 1
        while position >= 0 {
            var bits = word(position)
            while bits != 0 {
                let bit = 63 &- bits.leadingZeroBitCount
                body(64 &+ position &* 64 &+ bit)
                bits &= ~(1 &<< UInt64(bit))
            }
            position &-= 1
        }
        var bits = low
        while bits != 0 {
            let bit = 63 &- bits.leadingZeroBitCount
            body(bit)
            bits &= ~(1 &<< UInt64(bit))
        }
    }

    /// The indices in ascending order.
    package var indices: [Int] {
        var result: [Int] = []
        forEachAscending { result.append($0) }
        return result
    }

    @inlinable
    package static func == (lhs: StateSet, rhs: StateSet) -> Bool {
        guard lhs.low == rhs.low, lhs.extra == rhs.extra else { return false }
        var position = 0
        while position < lhs.extra {
            if lhs.word(position) != rhs.word(position) { return false }
            position &+= 1
        }
        return true
    }

    @inlinable
    package func hash(into hasher: inout Hasher) {
        hasher.combine(low)
        var position = 0
        while position < extra {
            hasher.combine(word(position))
            position &+= 1
        }
    }
}
