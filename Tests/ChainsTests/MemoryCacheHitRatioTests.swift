import Chains
import Foundation
import Testing

/// The hit ratio of `MemoryCache` against a textbook exact LRU on a Zipf trace.
struct MemoryCacheHitRatioTests {
    @Test func zipfTraceMatchesExactLRU() {
        let keys = 100_000
        let requests = 1_000_000
        let capacity = 10_000
        var zipf = ZipfGenerator(count: keys, exponent: 0.9, seed: 0x5EED)
        let cache = MemoryCache<Int, Int>(countLimit: capacity)
        var reference = ReferenceLRU(capacity: capacity)
        var cacheHits = 0
        var referenceHits = 0
        for _ in 0..<requests {
            let key = zipf.next()
            if cache.value(forKey: key) != nil { cacheHits += 1 } else { cache.setValue(key, forKey: key) }
            if reference.access(key) { referenceHits += 1 }
        }
        let ratio = Double(cacheHits) / Double(requests) * 100
        let referenceRatio = Double(referenceHits) / Double(requests) * 100
        print(
            "Zipf(0.9), \(requests) requests over \(keys) keys, capacity \(capacity): "
                + "MemoryCache \(percent(ratio)), exact LRU \(percent(referenceRatio))")
        #expect(abs(ratio - referenceRatio) <= 1)
        #expect(ratio > 40 && ratio < 80)  // the trace is skewed, not degenerate
    }

    private func percent(_ value: Double) -> String {
        "\((value * 100).rounded() / 100) %"
    }
}

/// Zipf-distributed ranks 0..<count (rank 0 the most popular), by inverse transform on a table
/// of cumulative weights, from a seeded SplitMix64.
struct ZipfGenerator {
    private let cumulative: [Double]
    private var state: UInt64

    init(count: Int, exponent: Double, seed: UInt64) {
        var total = 0.0
        var cumulative: [Double] = []
        cumulative.reserveCapacity(count)
        for rank in 1...count {
            total += 1 / pow(Double(rank), exponent)
            cumulative.append(total)
        }
        self.cumulative = cumulative.map { $0 / total }
        self.state = seed
    }

    mutating func next() -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        let uniform = Double(z >> 11) / Double(1 << 53)
        var low = 0
        var high = cumulative.count - 1
        while low < high {
            let middle = (low + high) / 2
            if cumulative[middle] < uniform { low = middle + 1 } else { high = middle }
        }
        return low
    }
}

/// A textbook LRU: a dictionary of nodes in a doubly linked list of class instances.
struct ReferenceLRU {
    private final class Node {
        let key: Int
        var previous: Node?
        var next: Node?
        init(key: Int) { self.key = key }
    }

    private let capacity: Int
    private var nodes: [Int: Node] = [:]
    private let head = Node(key: -1)  // most recent after head
    private let tail = Node(key: -1)

    init(capacity: Int) {
        self.capacity = capacity
        head.next = tail
        tail.previous = head
    }

    /// Accesses `key`: true on a hit; on a miss inserts it, evicting the least recent.
    mutating func access(_ key: Int) -> Bool {
        if let node = nodes[key] {
            unlink(node)
            pushFront(node)
            return true
        }
        if nodes.count == capacity, let last = tail.previous, last !== head {
            unlink(last)
            nodes[last.key] = nil
        }
        let node = Node(key: key)
        nodes[key] = node
        pushFront(node)
        return false
    }

    private func unlink(_ node: Node) {
        node.previous?.next = node.next
        node.next?.previous = node.previous
    }

    private func pushFront(_ node: Node) {
        node.next = head.next
        node.previous = head
        head.next?.previous = node
        head.next = node
    }
}
