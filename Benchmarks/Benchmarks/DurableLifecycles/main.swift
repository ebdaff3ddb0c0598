import BehaviorKitPostgres
import BehaviorKitSQLite
import DurableMachines
import Foundation
import StateMachines

// The lifecycle workload of ../../shared/peers/dbos_lifecycles.py, on durable machines: K orders
// started, then 3 events each (pay, ship, deliver, each with an id), C keys at a time; or, with
// `one-key`, the same 3K events sent to one key by C senders. Prints events/s as the peer does,
// then the floor measured in the same run: the same commits written by hand (read the row, then
// one transaction: a version-checked UPDATE of the snapshot and an INSERT of the history row).
//
//     swift run -c release DurableLifecycles sqlite:///tmp/l.sqlite 1000 16 [one-key]
//     swift run -c release DurableLifecycles "postgres://postgres@localhost/l?host=/tmp/pg" 1000 16
//
// The database must be fresh for each run.

enum OrderState: String, Codable, Sendable, Hashable { case placed, paid, shipped, delivered }
enum OrderEvent: String, Codable, Sendable, Hashable { case pay, ship, deliver, note }
struct Order: Codable, Sendable, Hashable { var notes = 0 }

let lifecycle = StateMachineDefinition<OrderState, OrderEvent, Order>(initial: .placed) {
    In(.placed) {
        On(.pay, to: .paid)
        On(.note) { $0.notes += 1 }
    }
    In(.paid) { On(.ship, to: .shipped) }
    In(.shipped) { On(.deliver, to: .delivered) }
    In(.delivered)
}

let arguments = CommandLine.arguments
let url = arguments.count > 1 ? arguments[1] : ""
let isPostgres = url.hasPrefix("postgres://") || url.hasPrefix("postgresql://")
guard arguments.count >= 4, let count = Int(arguments[2]), let concurrency = Int(arguments[3]), count > 0,
    concurrency > 0, url.hasPrefix("sqlite://") || isPostgres
else {
    FileHandle.standardError.write(
        Data("usage: DurableLifecycles sqlite:///PATH|postgres://URL KEYS CONCURRENCY [one-key]\n".utf8))
    exit(64)
}
let oneKey = arguments.count > 4 && arguments[4] == "one-key"
let path = String(url.dropFirst("sqlite://".count))
let database = isPostgres ? "postgres" : "sqlite"
let store: any MachineStore = isPostgres ? try await PostgresMachineStore(url: url) : try SQLiteMachineStore(path: path)
let orders = DurableMachine("order", definition: lifecycle, store: store)
let events = 3 * count

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

let elapsed: Duration
if oneKey {
    try await orders.start("one", context: Order())
    let start = ContinuousClock.now
    try await withThrowingTaskGroup(of: Void.self) { group in
        for lane in 0..<concurrency {
            group.addTask {
                for event in stride(from: lane, to: events, by: concurrency) {
                    try await orders.send(.note, to: "one", id: "e\(event)")
                }
            }
        }
        try await group.waitForAll()
    }
    elapsed = ContinuousClock.now - start
} else {
    for order in 0..<count { try await orders.start("order-\(order)", context: Order()) }
    let start = ContinuousClock.now
    try await withThrowingTaskGroup(of: Void.self) { group in
        for lane in 0..<concurrency {
            group.addTask {
                for order in stride(from: lane, to: count, by: concurrency) {
                    for event in [OrderEvent.pay, .ship, .deliver] {
                        try await orders.send(event, to: "order-\(order)", id: "order-\(order)/\(event)")
                    }
                }
            }
        }
        try await group.waitForAll()
    }
    elapsed = ContinuousClock.now - start
}
try await store.close()
let ours = seconds(elapsed) / Double(events)
let shape = oneKey ? "one key" : "lifecycles=\(count)"
print(
    "behaviorkit \(database) \(shape) events=\(events) concurrency=\(concurrency): \(Int((1 / ours).rounded())) events/s, "
        + "\(Int((ours * 1e6).rounded())) us/event")
let floor =
    isPostgres
    ? try await PostgresLifecycleFloor.measure(url, keys: oneKey ? 1 : count, events: events, concurrency: concurrency)
    : try await LifecycleFloor.sqlite(
        path + "-floor", keys: oneKey ? 1 : count, events: events, concurrency: concurrency)
print(
    "floor \(database) \(shape) concurrency=\(concurrency): \(Int((floor * 1e6).rounded())) us/event by hand; "
        + "durable machines are \(String(format: "%.2f", ours / floor))x the floor")
