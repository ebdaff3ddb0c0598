import BehaviorKitSync
import Commands

/// Lines written by test commands, in order.
final class Trace: Sendable {
    private let storage = LockedValue<[String]>([])

    func callAsFunction(_ line: String) {
        storage.withLock { $0.append(line) }
    }

    var lines: [String] { storage.withLock { $0 } }

    func reset() {
        storage.withLock { $0 = [] }
    }
}

struct TestFailure: Error, Equatable, CustomStringConvertible {
    let message: String
    init(_ message: String) { self.message = message }
    var description: String { message }
}

/// A command that writes "do <name>" and "undo <name>" to a trace, and can be told to fail.
struct Step: Command {
    let name: String
    let trace: Trace
    var failsExecute = false
    var failsUndo = false
    var canUndo = true
    var coalescingKey: String?

    init(
        _ name: String, _ trace: Trace, failsExecute: Bool = false, failsUndo: Bool = false, canUndo: Bool = true,
        key: String? = nil
    ) {
        self.name = name
        self.trace = trace
        self.failsExecute = failsExecute
        self.failsUndo = failsUndo
        self.canUndo = canUndo
        self.coalescingKey = key
    }

    func execute() async throws {
        if failsExecute { throw TestFailure("\(name) failed") }
        trace("do \(name)")
    }

    func undo() async throws {
        if failsUndo { throw TestFailure("undo \(name) failed") }
        trace("undo \(name)")
    }
}

/// A counter receiver: the state that commands change.
final class Counter: Sendable {
    private let storage = LockedValue(0)
    var value: Int { storage.withLock { $0 } }
    func add(_ amount: Int) { storage.withLock { $0 += amount } }
}

/// Adds to a counter; consecutive adds under one key fold into one.
struct Add: Command {
    let counter: Counter
    let amount: Int
    var coalescingKey: String?

    var name: String { "Add \(amount)" }

    func execute() async throws { counter.add(amount) }
    func undo() async throws { counter.add(-amount) }

    func coalesced(with next: any Command) -> (any Command)? {
        guard let next = next as? Add, next.counter === counter else { return nil }
        return Add(counter: counter, amount: amount + next.amount, coalescingKey: coalescingKey)
    }
}

/// A cart whose counts never go below zero: the receiver of scenario 2.
final class TestCart: Sendable {
    private let storage = LockedValue<[String: Int]>([:])

    var contents: [String: Int] { storage.withLock { $0 } }

    func add(_ item: String, _ count: Int) {
        storage.withLock { $0[item, default: 0] += count }
    }

    func reduce(_ item: String, _ count: Int) throws {
        try storage.withLock { goods throws(TestFailure) in
            let have = goods[item, default: 0]
            guard have >= count else { throw TestFailure("only \(have) \(item)") }
            goods[item] = have == count ? nil : have - count
        }
    }
}

struct AddGoods: Command {
    let cart: TestCart, item: String, count: Int
    var name: String { "Add \(count) \(item)" }
    func execute() async throws { cart.add(item, count) }
    func undo() async throws { try cart.reduce(item, count) }
}

struct ReduceGoods: Command {
    let cart: TestCart, item: String, count: Int
    var name: String { "Reduce \(count) \(item)" }
    func execute() async throws { try cart.reduce(item, count) }
    func undo() async throws { cart.add(item, count) }
}
