import BehaviorKitConsole
import BehaviorKitSQLite
import Benchmark
import Commands
import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NIOEmbedded

// Each page of the web console, rendered by its router (no socket: the request goes straight to
// the responder, the HTML is collected), on the journal of 1,000,000 settled records with 1,000
// pending ones (due, delayed and held, on two queues) and 100 failed, as JournalBenchmarks's
// management calls use. One iteration is one page; the figure is its wall time (the goal: at
// most 100 ms). Floor: the bare `records(matching:)` call that the records page makes.

/// The 1,000,000-record journal, made once per process, outside the measurement.
let consoleJournalPath: String = {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("console-bench-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let path = folder.appendingPathComponent("million.sqlite").path
    do {
        _ = try SQLiteCommandJournal(path: path)
        let database = try DatabaseQueue(path: path)
        try database.write { db in
            let payload = Data(#"{"order":42,"cents":990}"#.utf8)
            let statement = try db.makeStatement(
                sql: """
                    INSERT INTO commandRecord (key, kind, payload, parentKey, status, createdAt, updatedAt)
                    VALUES (?, ?, ?, ?, 'done', 1, 1)
                    """)
            for index in 0..<1_000_000 {
                let order = "order-\(index / 4)"
                let step = index % 4
                try statement.execute(arguments: [
                    step == 0 ? order : "\(order)/\(step - 1)", "bank.charge", payload, step == 0 ? nil : order,
                ])
            }
        }
        try database.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
    } catch {
        print("could not make the 1,000,000-record journal: \(error)")
    }
    return path
}()

/// The console on that journal, with its pending and failed records, and its router's responder.
actor ConsoleOnMillion {
    private var opened: (SQLiteCommandJournal, RouterResponder<BasicRequestContext>)?

    func get() async throws -> (SQLiteCommandJournal, RouterResponder<BasicRequestContext>) {
        if let opened { return opened }
        let journal = try SQLiteCommandJournal(path: consoleJournalPath)
        let lease = JournalLease(owner: "benchmark", duration: .seconds(3600))
        for index in 0..<1_000 {
            let entry = CommandJournalEntry(idempotencyKey: "queued-\(index)", kind: "bank.charge")
            _ = try await journal.enqueue(
                entry, queue: index.isMultiple(of: 2) ? "payments" : "mail",
                after: index.isMultiple(of: 3) ? .seconds(3600) : .zero)
        }
        _ = try await journal.claim(100, from: "payments", concurrency: nil, takingOverFrom: nil, lease: lease)
        for index in 0..<100 {
            let record = try await journal.begin(
                CommandJournalEntry(idempotencyKey: "failed-\(index)", kind: "bank.charge"), lease: lease
            ).record
            try await journal.settle(record.id, as: .failed(reason: "declined"), lease: lease.fenced(by: record))
        }
        let router = Router()
        JournalConsole(journal: journal).addRoutes(to: router)
        opened = (journal, router.buildResponder())
        return (journal, router.buildResponder())
    }
}

let consoleOnMillion = ConsoleOnMillion()

/// Counts a response body's bytes.
final class Collector: ResponseBodyWriter {
    var bytes = 0
    func write(_ buffer: ByteBuffer) async throws { bytes += buffer.readableBytes }
    func finish(_ trailingHeaders: HTTPFields?) async throws {}
}

/// `GET path` through the console's responder; the page's size in bytes.
func render(_ path: String, _ responder: RouterResponder<BasicRequestContext>) async throws -> Int {
    let request = Request(
        head: HTTPRequest(method: .get, scheme: "http", authority: "localhost", path: path),
        body: RequestBody(buffer: ByteBuffer()))
    let context = BasicRequestContext(
        source: ApplicationRequestContextSource(channel: EmbeddedChannel(), logger: Logger(label: "bench")))
    let response = try await responder.respond(to: request, context: context)
    guard response.status == .ok else { throw BenchmarkFailure(path: path, status: response.status.code) }
    let collector = Collector()
    try await response.body.write(collector)
    return collector.bytes
}

struct BenchmarkFailure: Error { let path: String, status: Int }

let benchmarks: @Sendable () -> Void = {
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock], scalingFactor: .one, maxDuration: .seconds(10), maxIterations: 50)
    let pages = [
        ("overview", "/"), ("records", "/records"), ("records.failed", "/records?status=failed"),
        ("records.queue", "/records?queue=mail"), ("records.prefix", "/records?prefix=order-12345"),
        ("records.page2", "/records?after=500000"), ("record", "/record?key=order-4242"), ("workers", "/workers"),
    ]
    for (name, path) in pages {
        Benchmark("Console.page1M.\(name)", configuration: configuration) { benchmark in
            let (_, responder) = try await consoleOnMillion.get()
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { blackHole(try await render(path, responder)) }
            benchmark.stopMeasurement()
        }
    }
    Benchmark("Console.page1M.floor", configuration: configuration) { benchmark in
        let (journal, _) = try await consoleOnMillion.get()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(try await journal.records(matching: CommandJournalFilter(), after: nil, limit: 50))
        }
        benchmark.stopMeasurement()
    }
}
