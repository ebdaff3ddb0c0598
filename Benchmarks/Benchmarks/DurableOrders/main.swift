import BehaviorKitPostgres
import BehaviorKitSQLite
import Commands
import Foundation

// The durable-orders workload of ../../shared/peers/dbos_orders.py, on BehaviorKit: N orders,
// each three steps (reserve, charge, ship) whose bodies do no work, so that the figure is the
// cost of durability alone; one at a time, or C at a time. Each order is a durable transaction
// (`transaction`, the default), or a workflow of three `context.step`s started on a queue, run
// by a worker of the same process and awaited with `handle.result()` (`workflow`: the peer's
// shape, a `@DBOS.workflow` of three `@DBOS.step`s), or that workflow run in the caller's task
// with `workflows.run(_:key:input:)` (`inline`: as DBOS runs a workflow function called directly;
// the process's worker only stands by). Prints the same line as the peer, for a side-by-side run:
//
//     swift run -c release DurableOrders sqlite:///tmp/orders.sqlite 500 16 [transaction|workflow|inline]
//     swift run -c release DurableOrders "postgres://postgres@localhost/orders?host=/tmp/pg" 500 16 workflow
//
// The journal must be fresh for each run.

struct Order: Codable, Sendable { var order: Int }

let arguments = CommandLine.arguments
guard arguments.count == 4 || arguments.count == 5, let count = Int(arguments[2]),
    let concurrency = Int(arguments[3]), count > 0, concurrency > 0,
    ["transaction", "workflow", "inline"].contains(arguments.count == 5 ? arguments[4] : "transaction")
else {
    FileHandle.standardError.write(
        Data(
            "usage: DurableOrders sqlite:///PATH|postgres://URL ORDERS CONCURRENCY [transaction|workflow|inline]\n".utf8
        ))
    exit(64)
}
let mode = arguments.count == 5 ? arguments[4] : "transaction"
let asWorkflows = mode != "transaction"
let url = arguments[1]
let database: String
let journal: any CommandJournalManagement
if url.hasPrefix("sqlite://") {
    database = "sqlite"
    journal = try SQLiteCommandJournal(path: String(url.dropFirst("sqlite://".count)))
} else if url.hasPrefix("postgres://") || url.hasPrefix("postgresql://") {
    database = "postgres"
    journal = try await PostgresCommandJournal(url: url)
} else {
    FileHandle.standardError.write(Data("DurableOrders: a sqlite:// or postgres:// URL, not \(url)\n".utf8))
    exit(64)
}
let invoker = JournaledInvoker(journal: journal)
let process = ProcessInfo.processInfo.processIdentifier

// The workflow: three steps that return the order, as the peer's.
let placeOrder = Workflow("place") { (context, order: Order) -> Int in
    for name in ["reserve", "charge", "ship"] {
        _ = try await context.step(name) { _ in order.order }
    }
    return order.order
}
var registry = WorkflowRegistry()
registry.register(placeOrder)
// Woken by each start in this process (no poll in the way); as many runs at once as callers.
let workflows = Workflows(
    registry, queue: CommandQueue("orders", journal: journal), invoker: invoker, slots: concurrency)
let worker = asWorkflows ? Task { await workflows.run() } : nil

func place(_ order: Int) async throws {
    let key = "order-\(process)-\(order)"
    switch mode {
    case "workflow":
        _ = try await workflows.start(placeOrder, key: key, input: Order(order: order)).result()
        return
    case "inline":
        _ = try await workflows.run(placeOrder, key: key, input: Order(order: order))
        return
    default: break
    }
    let steps = try ["reserve", "charge", "ship"].map { name in
        try DurableStep("orders.\(name)", arguments: Order(order: order), command: ClosureCommand(name) {})
    }
    try await invoker.transaction("place", key: key, steps: steps).run()
}

let start = ContinuousClock.now
try await withThrowingTaskGroup(of: Void.self) { group in
    for lane in 0..<concurrency {
        group.addTask {
            for order in stride(from: lane, to: count, by: concurrency) { try await place(order) }
        }
    }
    try await group.waitForAll()
}
let elapsed = ContinuousClock.now - start
let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
worker?.cancel()
_ = await worker?.value
try await journal.close()
print(
    "behaviorkit \(database) \(asWorkflows ? "\(mode) " : "")orders=\(count) concurrency=\(concurrency): \(Int((Double(count) / seconds).rounded())) orders/s, "
        + "\(Int((seconds / Double(count) * 1e6).rounded())) us/order")
// The floor, in the same run: one commit's latency by hand (median of as many commits as
// orders), times the four commits an order costs. One at a time, an order is bound by it.
let commit = try await CommitFloor.measure(url, count: count)
let commitSeconds = Double(commit.components.seconds) + Double(commit.components.attoseconds) / 1e18
let perOrder = seconds / Double(count)
print(
    "floor \(database): one commit \(Int((commitSeconds * 1e6).rounded())) us, 4 commits an order "
        + "\(Int((4 * commitSeconds * 1e6).rounded())) us; an order one at a time is "
        + "\(String(format: "%.2f", perOrder * Double(concurrency) / (4 * commitSeconds)))x the floor")
