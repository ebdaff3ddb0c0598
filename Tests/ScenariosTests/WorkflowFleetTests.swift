import Commands
import Foundation
import GRDB
import Testing

@testable import Scenarios

/// The workflow fleet's orders and checks in one process (`behaviorkit workflow-fleet` runs them
/// in worker processes under faults): two workers of the first code, replaced half-way by two of
/// the patched code, run the orders (two of them refused and rolled back); every promise holds,
/// and the checks see a lost effect and a missed compensation.
struct WorkflowFleetTests {
    @Test func aSmallFleetInOneProcessKeepsEveryPromiseAndTheChecksSeeABrokenOne() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("workflow-fleet-\(UUID())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let journal = try await JournalLocation.open(folder + "/journal.sqlite")
        let ledger = try FleetLedger(path: Fleet.ledgerPath(folder))
        let lease = Duration.milliseconds(500)
        let driver = WorkflowFleet.engine(
            journal, ledger, owner: "driver", label: "driver", lease: lease, patched: false)
        let sender = WorkflowFleet.engine(
            journal, ledger, owner: "sender", label: "sender", lease: lease, patched: false)
        let order = FleetWorkflows.order(ledger, worker: "driver", patched: false)
        func workers(patched: Bool) -> [Task<Void, Never>] {
            (0..<2).map { slot in
                let engine = WorkflowFleet.engine(
                    journal, ledger, owner: "w\(slot)", label: "w\(slot).\(patched ? 2 : 1)", lease: lease,
                    patched: patched)
                return Task { await engine.run() }
            }
        }
        let count = 20
        var running = workers(patched: false)
        for number in 0..<count {
            if number == count / 2 {
                // The deploy: the first workers stop (their attempts under way finish), the patched ones start.
                running.forEach { $0.cancel() }
                for task in running { await task.value }
                running = workers(patched: true)
            }
            try await driver.start(order, key: FleetWorkflows.key(number), input: number)
            // The payment, sent twice with one id, from two senders.
            try await FleetWorkflows.sendPayment(number, driver)
            try await FleetWorkflows.sendPayment(number, sender)
        }
        let (console, printed) = Console.recording()
        let settled = try await Fleet.waitUntilSettled(
            journal, queue: FleetWorkflows.queue, timeout: .seconds(60), console: console
        ) {}
        // Where the wait stood is printed as it begins (and every 30 s), for a run past its deadline.
        #expect(printed.lines.first?.hasPrefix("fleet: waiting for \(FleetWorkflows.queue) to settle: ") == true)
        running.forEach { $0.cancel() }
        for task in running { await task.value }
        let started = Array(0..<count)
        let (report, violations) = try await WorkflowFleet.check(
            journal, ledger, acknowledged: started, settled: settled)
        #expect(violations == [])
        // Orders 7 and 17 are refused by the carrier: their runs roll back.
        #expect(report.done == count - 2 && report.compensated == 2, "\(report)")
        #expect(report.children == count && report.messages == count, "\(report)")
        #expect(report.patchedPath >= count / 2 && report.firstPath + report.patchedPath == count, "\(report)")

        try await DatabaseQueue(path: Fleet.ledgerPath(folder)).write { db in
            try db.execute(sql: "DELETE FROM effect WHERE key = 'wf-3/0'")
        }
        let (_, broken) = try await WorkflowFleet.check(journal, ledger, acknowledged: started, settled: true)
        #expect(broken.count == 1 && broken.first?.hasPrefix("wf-3 left the effects") == true, "\(broken)")

        // A rollback that missed a compensation: the charge of the refused order 7 not refunded.
        try await DatabaseQueue(path: Fleet.ledgerPath(folder)).write { db in
            try db.execute(sql: "DELETE FROM refund WHERE key = 'wf-7/3'")
            try db.execute(sql: "DELETE FROM execution WHERE key = 'wf-7/3' AND kind = 'undo'")
        }
        let (_, unrefunded) = try await WorkflowFleet.check(journal, ledger, acknowledged: started, settled: true)
        #expect(unrefunded.contains("wf-7 compensated [\"wf-7/0\"], not [\"wf-7/0\", \"wf-7/3\"]"), "\(unrefunded)")
        try await journal.close()
    }
}
