import BehaviorKitPostgres
import BehaviorKitSQLite
import Commands
import Foundation
import Synchronization

// The job-queue workload of ../../shared/peers/pgqueuer_queue.py, on BehaviorKit's CommandQueue and
// QueueWorker.run() (the loop an app runs), printing the peer's lines for a side-by-side run on the
// same server, a fresh database per run:
//
//     DurableQueue enqueue URL N TASKS|bulk          N no-op jobs, one call per job from TASKS tasks, or
//                                                    enqueue(contentsOf:) 1,000 a call
//     DurableQueue work URL START_AT SLOTS POLL_MS   one worker process drains the queue from START_AT
//                                                    (Unix seconds); prints first/last times
//     DurableQueue produce URL RATE COUNT            COUNT stamped jobs at RATE a second, one by one
//     DurableQueue latency URL COUNT SLOTS POLL_MS   a worker until COUNT stamped jobs ran: enqueue → start
//     DurableQueue latency-here URL COUNT SLOTS POLL_MS RATE   the same, their producer in this process
//                                                    (COUNT jobs at RATE a second): pickup within a process
//     DurableQueue floor-enqueue PATH N              SQLite's hand-written queue (SQLiteQueueFloor): N jobs
//     DurableQueue floor-work PATH START_AT          … drained by one process, 16 a claim
//
// URL: sqlite:///PATH or postgres://… . Stamps are CLOCK_REALTIME, as the peer's. BK_FLOW names
// the flow control the queue's jobs are enqueued and worked under (FlowControl; `plain` unset).

struct Stamp: Codable, Sendable { var nanoseconds: Int64 }
struct Nothing: Codable, Sendable {}

func wallNanoseconds() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
}

func summary(_ values: [Int64]) -> String {
    let sorted = values.sorted()
    func percentile(_ p: Double) -> String {
        guard !sorted.isEmpty else { return "nan" }
        let index = min(sorted.count - 1, max(0, Int((p * Double(sorted.count)).rounded(.up)) - 1))
        return String(format: "%.2f", Double(sorted[index]) / 1e6)
    }
    let largest = String(format: "%.2f", Double(sorted.last ?? 0) / 1e6)
    return "n=\(values.count) p50=\(percentile(0.5)) p90=\(percentile(0.9)) p99=\(percentile(0.99)) max=\(largest) ms"
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("DurableQueue: \(message)\n".utf8))
    exit(64)
}

func open(_ url: String) async throws -> any CommandJournalManagement {
    if url.hasPrefix("sqlite://") { return try SQLiteCommandJournal(path: String(url.dropFirst("sqlite://".count))) }
    if url.hasPrefix("postgres://") || url.hasPrefix("postgresql://") {
        return try await PostgresCommandJournal(url: url)
    }
    fail("a sqlite:// or postgres:// URL, not \(url)")
}

/// N no-op jobs, one call per job from TASKS tasks: jobs/s and the time per call.
func enqueueOneByOne(
    _ queue: CommandQueue, _ count: Int, tasks: Int, process: Int32, flow: FlowControl
) async throws -> String {
    let start = ContinuousClock.now
    let calls = try await withThrowingTaskGroup(of: [Int64].self) { group in
        for lane in 0..<tasks {
            group.addTask {
                var took: [Int64] = []
                for index in stride(from: lane, to: count, by: tasks) {
                    let before = wallNanoseconds()
                    try await queue.enqueue(
                        kind: "noop", arguments: Nothing(), key: "noop-\(process)-\(index)",
                        priority: flow.priority(of: index), partition: flow.partition(of: index))
                    took.append(wallNanoseconds() - before)
                }
                return took
            }
        }
        return try await group.reduce(into: []) { $0 += $1 }
    }
    let seconds = (ContinuousClock.now - start) / .seconds(1)
    return "behaviorkit enqueue n=\(count) tasks=\(tasks): \(Int(Double(count) / seconds)) jobs/s; "
        + "per call \(summary(calls))"
}

/// N no-op jobs with `enqueue(contentsOf:)`, 1,000 a call (as the peer's bulk mode): jobs/s.
func enqueueInBulk(_ queue: CommandQueue, _ count: Int, process: Int32, flow: FlowControl) async throws -> String {
    let start = ContinuousClock.now
    for low in stride(from: 0, to: count, by: 1_000) {
        let jobs = try (low..<min(count, low + 1_000)).map {
            QueuedJob(
                try CommandRegistry.entry(kind: "noop", arguments: Nothing(), key: "noop-\(process)-\($0)"),
                priority: flow.priority(of: $0), partition: flow.partition(of: $0))
        }
        try await queue.enqueue(contentsOf: jobs)
    }
    let seconds = (ContinuousClock.now - start) / .seconds(1)
    return "behaviorkit enqueue n=\(count) bulk(1000/call): \(Int(Double(count) / seconds)) jobs/s"
}

/// COUNT stamped jobs at RATE a second, one call each: the time each enqueue call took.
func produceStamped(_ queue: CommandQueue, rate: Double, count: Int, process: Int32) async throws -> String {
    var calls: [Int64] = []
    let origin = ContinuousClock.now
    for index in 0..<count {
        let due = origin + .seconds(Double(index) / rate)
        if due > ContinuousClock.now { try await Task.sleep(until: due) }
        let stamp = wallNanoseconds()
        try await queue.enqueue(kind: "lat", arguments: Stamp(nanoseconds: stamp), key: "lat-\(process)-\(index)")
        calls.append(wallNanoseconds() - stamp)
    }
    let seconds = (ContinuousClock.now - origin) / .seconds(1)
    return "behaviorkit produce rate=\(rate) count=\(count) in \(String(format: "%.2f", seconds))s; "
        + "enqueue call \(summary(calls))"
}

let arguments = CommandLine.arguments
if arguments.count == 4, arguments[1] == "floor-enqueue", let count = Int(arguments[3]), count > 0 {
    print(try SQLiteQueueFloor.enqueue(arguments[2], count: count))
    exit(0)
}
if arguments.count == 4, arguments[1] == "floor-work", let startAt = Double(arguments[3]) {
    print(try SQLiteQueueFloor.work(arguments[2], startAt: startAt))
    exit(0)
}
guard arguments.count >= 5 else {
    fail("usage: DurableQueue enqueue|work|produce|latency URL … (see the source's header)")
}
let journal = try await open(arguments[2])
let flow = FlowControl.fromEnvironment()
let queue = flow.queue(on: journal)
let process = ProcessInfo.processInfo.processIdentifier
let latencies = Mutex<[Int64]>([])
let settled = Mutex<(count: Int, last: Int64)>((0, 0))
var registry = CommandRegistry()
registry.register("noop", arguments: Nothing.self) { _ in
    ClosureCommand("noop") { settled.withLock { $0 = ($0.count + 1, wallNanoseconds()) } }
}
registry.register("lat", arguments: Stamp.self) { stamp in
    ClosureCommand("lat") { latencies.withLock { $0.append(wallNanoseconds() - stamp.nanoseconds) } }
}

switch arguments[1] {
case "enqueue":
    guard let count = Int(arguments[3]), count > 0, arguments[4] == "bulk" || Int(arguments[4]) ?? 0 > 0 else {
        fail("N TASKS|bulk")
    }
    try await flow.prepare(queue)
    if arguments[4] == "bulk" {
        print(try await enqueueInBulk(queue, count, process: process, flow: flow))
    } else {
        print(try await enqueueOneByOne(queue, count, tasks: Int(arguments[4]) ?? 1, process: process, flow: flow))
    }
case "work", "latency", "latency-here":
    let here = arguments[1] == "latency-here"
    guard arguments.count == (here ? 7 : 6), let number = Double(arguments[3]), let slots = Int(arguments[4]),
        let poll = Int(arguments[5]), slots > 0, poll > 0, !here || Double(arguments[6]) ?? 0 > 0
    else { fail("work URL START_AT SLOTS POLL_MS, latency URL COUNT SLOTS POLL_MS, or latency-here … RATE") }
    let invoker = JournaledInvoker(journal: journal, registry: registry)
    let worker = QueueWorker(queue, invoker: invoker, slots: slots, pollInterval: .milliseconds(poll))
    if arguments[1] == "work" {
        let wait = number - Date().timeIntervalSince1970
        if wait > 0 { try await Task.sleep(for: .seconds(wait)) }
    }
    let first = Date().timeIntervalSince1970
    let running = Task { await worker.run() }
    let producing = Task {
        guard here, let rate = Double(arguments[6]) else { return }
        try await Task.sleep(for: .milliseconds(200))  // the worker waits, as the other process's would
        _ = try await produceStamped(queue, rate: rate, count: Int(number), process: process)
    }
    // Drain: stop once nothing is due, delayed or running (as the peer's drain mode); latency:
    // once COUNT stamped jobs ran. Looked at every 10 ms; the queue's counts (a query over the
    // table's pending records) are read only when this worker neither claimed nor ran anything
    // for five looks in a row, so that workers starved of a core for a moment while the fleet
    // drains do not load the server with them (the rate is reckoned from the last job's end).
    var progress = (claimed: -1, ran: -1)
    var quiet = 0
    while true {
        try await Task.sleep(for: .milliseconds(10))
        if arguments[1] != "work" {
            if latencies.withLock({ $0.count }) >= Int(number) { break }
            continue
        }
        let now = (claimed: worker.statistics.claimed, ran: settled.withLock { $0.count })
        if now != progress {
            progress = now
            quiet = 0
            continue
        }
        quiet += 1
        if quiet < 5 { continue }
        let statistics = try await journal.queues().first { $0.name == queue.name }
        if let statistics, statistics.due + statistics.delayed + statistics.running > 0 { continue }
        break
    }
    running.cancel()
    await running.value
    try await producing.value
    let last = Date().timeIntervalSince1970
    if arguments[1] == "work" {
        let (count, lastJob) = settled.withLock { $0 }
        print(
            String(
                format: "behaviorkit worker drain slots=%d poll=%dms settled=%d first=%.6f last=%.6f lastjob=%.6f",
                slots, poll, count, first, last, Double(lastJob) / 1e9))
    } else {
        print(
            "behaviorkit \(arguments[1]) slots=\(slots) poll=\(poll)ms enqueue->start "
                + summary(latencies.withLock { $0 }))
    }
case "produce":
    guard let rate = Double(arguments[3]), let count = Int(arguments[4]), rate > 0, count > 0 else {
        fail("RATE COUNT")
    }
    print(try await produceStamped(queue, rate: rate, count: count, process: process))
default:
    fail("a mode: enqueue, work, produce, latency or latency-here, not \(arguments[1])")
}
try await journal.close()
