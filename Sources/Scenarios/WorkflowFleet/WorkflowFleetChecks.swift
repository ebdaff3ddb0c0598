import Commands
import Foundation

extension WorkflowFleet {
    /// Checks every promise, per started order: its run and its child finished (a refused
    /// order's run compensated, each step with a compensation undone once, given its output,
    /// and no other); its journal holds one code path, whole; each step's effect is in the ledger once with its value, no
    /// attempt ran a step twice and no step ran after its output was recorded; its payment
    /// message was recorded once and consumed; its sleep's next step never started before the
    /// sleep's deadline; the child's result reached the parent once (one join, the shipment
    /// carries it). Then: nothing pending, no two attempts acting on a step at once, sound files.
    static func check(
        _ journal: any CommandJournal, _ ledger: FleetLedger, acknowledged: [Int], settled: Bool
    ) async throws -> (WorkflowFleetReport, [String]) {
        var violations: [String] = settled ? [] : ["the workflows did not all finish within the time allowed"]
        let records = try await journal.allRecords()
        let byKey = Dictionary(records.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let children = Dictionary(grouping: records.filter { $0.entry.parentKey != nil }) { $0.entry.parentKey ?? "" }
        let messages = Dictionary(grouping: records.filter { $0.entry.kind == "behaviorkit.workflow.message" }) {
            $0.queue ?? ""
        }
        let world = try ledger.contents()
        let executions = Dictionary(grouping: world.executions, by: \.key)
        var report = WorkflowFleetReport(started: acknowledged.count)
        for number in acknowledged.sorted() {
            let key = FleetWorkflows.key(number)
            var found: [String] = []
            let refused = FleetWorkflows.refused(number)
            for (run, settled) in [
                (key, refused ? CommandJournalStatus.compensated : .done), (FleetWorkflows.childKey(number), .done),
            ] {
                if byKey[run]?.status != settled {
                    found.append("\(run) did not end \(settled): \(byKey[run].map { "\($0.status)" } ?? "no run")")
                }
            }
            // The positions of the code; a rollback's records (its cause, each compensation) are not.
            let recorded = (children[key] ?? []).filter { position($0.id, of: key) >= 0 }.sorted {
                position($0.id, of: key) < position($1.id, of: key)
            }
            let path = recorded.map { "\($0.entry.kind) \(String(decoding: $0.entry.payload, as: UTF8.self))" }
            let paths = [false, true].map { patched in
                FleetWorkflows.path(number, patched: patched).map { "\($0.kind) \($0.name)" }
            }
            guard let patched = paths.firstIndex(of: path).map({ $0 == 1 }) else {
                violations.append("\(key) recorded neither code path: \(path)")
                continue
            }
            let expected = FleetWorkflows.effects(number, patched: patched)
            let effects = world.effects.filter { $0.key.hasPrefix(key + "/") || $0.key.hasPrefix(key + "-pick/") }
            if effects != expected { found.append("\(key) left the effects \(effects), not \(expected)") }
            found += checkRollback(number, world)
            let ran = Set(expected.keys).union(FleetWorkflows.compensated(number).keys)
            for step in ran.sorted() {
                let applied = (executions[step] ?? []).filter { !$0.refused && $0.ended != nil && $0.kind == "run" }
                let attempts = Dictionary(grouping: applied, by: \.attempt).filter { $0.value.count > 1 }
                if let most = attempts.values.map(\.count).max() {
                    // The most in one attempt: runs in other attempts (after a kill) are allowed.
                    found.append("\(step) ran \(most) times in one attempt")
                }
                report.rerunSteps += max(0, applied.count - 1)
                if let record = byKey[step],
                    let late = applied.first(where: { $0.started > milliseconds(record.updatedAt) + 5 })
                {
                    found.append(
                        "\(step) ran again (\(late.worker), attempt \(late.attempt)) after its output was recorded")
                }
            }
            found += checkMessage(number, recorded, messages[mailbox(key)] ?? [])
            found += checkSleep(number, recorded, patched: patched, executions)
            let joins = recorded.filter { $0.entry.kind == "behaviorkit.workflow.join" && $0.status == .done }
            if joins.count != 1 { found.append("\(key) took its child's result \(joins.count) times") }
            if found.isEmpty {
                if refused { report.compensated += 1 } else { report.done += 1 }
                report.children += 1
                report.messages += 1
                if patched { report.patchedPath += 1 } else { report.firstPath += 1 }
            }
            violations += found
        }
        let pending = records.filter { $0.status == .pending }.map(\.id)
        if !pending.isEmpty { violations.append("left pending: \(pending.prefix(5))") }
        report.refusedStaleWrites = world.executions.count(where: \.refused)
        violations += try await world.soundnessViolations(journal: journal)
        return (report, violations)
    }

    /// A refused order `number`'s rollback: each step with a compensation was compensated (an
    /// `undo` execution the ledger took, given the step's output), no other step was; an order
    /// that shipped compensated nothing.
    private static func checkRollback(_ number: Int, _ world: FleetLedger.Contents) -> [String] {
        let key = FleetWorkflows.key(number)
        let expected = FleetWorkflows.compensated(number)
        let undone = Set(
            world.executions.filter { $0.root == key && $0.kind == "undo" && !$0.refused && $0.ended != nil }.map(\.key)
        )
        var found: [String] = []
        if undone != Set(expected.keys) {
            found.append("\(key) compensated \(undone.sorted()), not \(expected.keys.sorted())")
        }
        for (step, output) in expected where world.refunds[step] != output {
            found.append("the compensation of \(step) was given '\(world.refunds[step] ?? "nothing")', not '\(output)'")
        }
        return found
    }

    /// Order `number`'s payment: one message under its id, consumed (settled), and its receive
    /// answered.
    private static func checkMessage(
        _ number: Int, _ recorded: [CommandJournalRecord], _ messages: [CommandJournalRecord]
    ) -> [String] {
        let key = FleetWorkflows.key(number)
        var found: [String] = []
        if messages.map(\.id) != ["\(key)/message/\(FleetWorkflows.topic)/\(FleetWorkflows.payment(number))"]
            || messages.contains(where: { $0.status != .done })
        {
            found.append("\(key)'s mailbox holds \(messages.map { "\($0.id) \($0.status)" }), not one consumed payment")
        }
        let receives = recorded.filter { $0.entry.kind == "behaviorkit.workflow.receive" && $0.status == .done }
        if receives.count != 1 { found.append("\(key) received \(receives.count) times") }
        return found
    }

    /// Order `number`'s sleep: no execution of the step after it started before its deadline
    /// (the journal's time of the sleep's record, plus its duration; 1 ms for the ledger's rounding).
    private static func checkSleep(
        _ number: Int, _ recorded: [CommandJournalRecord], patched: Bool,
        _ executions: [String: [FleetLedger.LoggedExecution]]
    ) -> [String] {
        let key = FleetWorkflows.key(number)
        guard let sleep = recorded.first(where: { $0.entry.kind == "behaviorkit.workflow.sleep" }) else {
            return ["\(key) recorded no sleep"]
        }
        let deadline = milliseconds(sleep.createdAt) + FleetWorkflows.sleep(number).journalMilliseconds
        let ship = "\(key)/\(patched ? 8 : 6)"
        guard let early = (executions[ship] ?? []).first(where: { $0.started < deadline - 1 }) else { return [] }
        return ["\(ship) started \(deadline - early.started) ms before its sleep's deadline (\(early.worker))"]
    }

    /// The position of the child record `child` of the run `key` ("<run>/<position>"), or -1
    /// for another of its records ("<run>/compensation/<position>", say).
    private static func position(_ child: String, of key: String) -> Int {
        Int(child.dropFirst(key.count + 1)) ?? -1
    }

    /// The mailbox of payments of the run `key`.
    private static func mailbox(_ key: String) -> String {
        "behaviorkit.workflow.mailbox/\(key)/\(FleetWorkflows.topic)"
    }

    private static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }
}
