import Commands

/// The workflow fleet's work: an order workflow that reserves (a step), starts a child that
/// picks the goods, waits for its payment message, charges it (a step), sleeps durably, takes
/// the child's result and ships it (a step). Every step's effect goes to the ledger, a partner
/// that fences with the attempt's token. The code is deployed in two versions: the second adds
/// an insurance step behind `patched("insure")`, so that runs that started before the deploy
/// keep the first path and new ones take the second. One order in ten is refused by the
/// carrier: its run rolls back, releasing the reservation and refunding the charge (their
/// compensations), newest first.
enum FleetWorkflows {
    static let queue = "workflow-fleet"
    static let topic = "paid"
    static let patch = "insure"

    static func key(_ number: Int) -> String { "wf-\(number)" }
    static func childKey(_ number: Int) -> String { "wf-\(number)-pick" }
    static func payment(_ number: Int) -> String { "pay-\(number)" }
    /// How long order `number` sleeps: 1 to 2 s.
    static func sleep(_ number: Int) -> Duration { .milliseconds(1_000 + (number * 37) % 1_000) }

    /// What order `number` writes in its journal, in order, on each path: (kind, name).
    static func path(_ number: Int, patched: Bool) -> [(kind: String, name: String)] {
        let head = [
            ("behaviorkit.workflow.step", "reserve"), ("behaviorkit.workflow.start", childKey(number)),
            ("behaviorkit.workflow.receive", topic), ("behaviorkit.workflow.step", "charge"),
        ]
        let insurance = patched ? [("behaviorkit.workflow.patch", patch), ("behaviorkit.workflow.step", "insure")] : []
        let tail = [
            ("behaviorkit.workflow.sleep", "sleep"), ("behaviorkit.workflow.join", childKey(number)),
            ("behaviorkit.workflow.step", "ship"),
        ]
        return (head + insurance + tail).map { (kind: $0.0, name: $0.1) }
    }

    /// Whether the carrier refuses order `number`, so that its run rolls back.
    static func refused(_ number: Int) -> Bool { number % 10 == 7 }

    /// The effects order `number` leaves in the ledger on each path, by the step's key: a
    /// refused order's reservation and charge are compensated away (its insurance has no
    /// compensation, and its child's picking is the child's own).
    static func effects(_ number: Int, patched: Bool) -> [String: String] {
        let run = key(number)
        var effects = ["\(childKey(number))/0": "picked-\(number)"]
        if patched { effects["\(run)/5"] = "insured-\(number)" }
        guard !refused(number) else { return effects }
        effects["\(run)/0"] = "reserved-\(number)"
        effects["\(run)/3"] = "charged-\(payment(number))"
        effects["\(run)/\(patched ? 8 : 6)"] = "shipped-picked-\(number)"
        return effects
    }

    /// The steps a refused order `number` compensates, by key, with the output its compensation
    /// is given (the ledger notes it as the refund's payment).
    static func compensated(_ number: Int) -> [String: String] {
        refused(number)
            ? ["\(key(number))/0": "reserved-\(number)", "\(key(number))/3": "charged-\(payment(number))"] : [:]
    }

    struct CarrierRefused: Error, CustomStringConvertible {
        let number: Int
        var description: String { "the carrier refused order \(number)" }
    }

    /// The child: one step that picks the goods.
    static func picking(_ ledger: FleetLedger, worker: String) -> Workflow<Int, String> {
        Workflow("fleet.pick") { context, number in
            try await context.step("pick") { step in
                try await effect("picked-\(number)", step, root: context.key, ledger, worker)
            }
        }
    }

    /// The order, in the code version that has the patch (`patched`) or not.
    static func order(_ ledger: FleetLedger, worker: String, patched: Bool) -> Workflow<Int, String> {
        let picking = picking(ledger, worker: worker)
        return Workflow("fleet.order") { context, number in
            _ = try await context.step("reserve") { step in
                try await effect("reserved-\(number)", step, root: context.key, ledger, worker)
            } compensate: { step, reserved in
                try await undo(reserved, step, root: context.key, ledger, worker)
            }
            let pick = try await context.start(picking, key: childKey(number), input: number)
            let payment = try await context.receive(String.self, topic: topic, timeout: .seconds(3_600)) ?? "none"
            _ = try await context.step("charge") { step in
                try await effect("charged-\(payment)", step, root: context.key, ledger, worker)
            } compensate: { step, charged in
                try await undo(charged, step, root: context.key, ledger, worker)
            }
            if patched, try await context.patched(patch) {
                _ = try await context.step("insure") { step in
                    try await effect("insured-\(number)", step, root: context.key, ledger, worker)
                }
            }
            try await context.sleep(for: sleep(number))
            let picked = try await pick.result()
            return try await context.step("ship") { step in
                try await effect("shipped-\(picked)", step, root: context.key, ledger, worker, refused: refused(number))
            }
        }
    }

    /// The registry of a worker of the given code version.
    static func registry(_ ledger: FleetLedger, worker: String, patched: Bool) -> WorkflowRegistry {
        var registry = WorkflowRegistry()
        registry.register(order(ledger, worker: worker, patched: patched))
        registry.register(picking(ledger, worker: worker))
        return registry
    }

    /// Sends order `number` its payment message (the same id every time).
    static func sendPayment(_ number: Int, _ workflows: Workflows) async throws {
        try await workflows.send(payment(number), to: key(number), topic: topic, id: payment(number))
    }

    /// Logs the execution in the ledger, fenced by the attempt's token, and applies `value`
    /// under the step's key.
    /// With `refused`, the partner refuses it instead: the execution ends without an effect, and
    /// the step throws.
    private static func effect(
        _ value: String, _ step: DurableContext, root: String, _ ledger: FleetLedger, _ worker: String,
        refused: Bool = false
    ) async throws -> String {
        let execution = try await ledger.start(
            "run", key: step.key, root: root, worker: worker, token: step.fencingToken)
        try await Task.sleep(for: .milliseconds(2))  // a remote call
        if refused {
            try await ledger.end(execution)
            throw CarrierRefused(number: Int(root.dropFirst("wf-".count)) ?? -1)
        }
        try await ledger.apply(step.key, value: value, ending: execution)
        return value
    }

    /// Logs the compensation of the step `step` in the ledger, fenced by the attempt's token,
    /// removes its effect and notes the output it was given as the refund's payment.
    private static func undo(
        _ output: String, _ step: DurableContext, root: String, _ ledger: FleetLedger, _ worker: String
    ) async throws {
        let execution = try await ledger.start(
            "undo", key: step.key, root: root, worker: worker, token: step.fencingToken)
        try await ledger.undo(step.key, payment: output, ending: execution)
    }
}
