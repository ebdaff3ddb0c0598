import BehaviorKitSync
import Commands

extension WorkflowConformance {
    /// DBOS: "`set_event` … Create and associate with this workflow an event with key `key` and
    /// value `value`. If the event already exists, update its value"; "`get_event` … Retrieve
    /// the latest value of an event published by the workflow … Waits for the event to be
    /// published, returning `None` if the wait times out"
    /// (https://docs.dbos.dev/python/reference/contexts, workflow events). Here a caller in the
    /// worker's process waits for the event and is woken by the publish (the clock does not
    /// move); the latest value wins; another process reads it from the journal; a run taken up
    /// again does not publish again; and an event never published answers `nil` at the timeout.
    static func anEventWakesItsWaiterAndTheLatestValueWins(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "a published event wakes its waiter, the latest value wins, and a missing one is nil (DBOS events)"
        let effects = WorkflowEffects()
        let checkout = Workflow("checkout") { (context, order: Int) -> String in
            try await context.publish("page-\(order)-draft", as: "payment-page")
            try await context.publish("page-\(order)", as: "payment-page")
            effects.record("published")
            try await context.sleep(for: .seconds(60))
            return "done"
        }
        let registry = registered(checkout)
        let workflows = worker(journal, clock, registry, owner: "process-1")
        let before = try await workflows.event(of: "checkout-1", key: "payment-page", as: String.self, timeout: .zero)
        try expect(before == nil, check, "before the run started, the event was \(String(describing: before))")
        let woken = LockedValue<String??>(nil)
        let waiter = Task {
            let page = try await workflows.event(
                of: "checkout-1", key: "payment-page", as: String.self, timeout: .seconds(10))
            woken.withLock { $0 = .some(page) }
        }
        try await waitUntil(check, "the waiter never slept") { clock.sleeperCount > 0 }
        let handle = try await workflows.start(checkout, key: "checkout-1", input: 1)
        try await workflows.runDue()
        try await waitUntil(check, "the publish did not wake the waiter (the clock never moved)") {
            woken.withLock { $0 } != nil
        }
        waiter.cancel()
        let page = woken.withLock { $0 } ?? nil
        // Woken by the first publish or the second, the waiter reads the latest value then.
        try expect(
            page == "page-1-draft" || page == "page-1", check, "the waiter read \(String(describing: page))")
        await clock.advance(by: .seconds(60))
        let other = worker(journal, clock, registry, owner: "process-2")
        try await other.runDue()
        _ = try await handle.result()
        let read = try await other.event(of: "checkout-1", key: "payment-page", as: String.self, timeout: .zero)
        try expect(read == "page-1", check, "another process read \(String(describing: read))")
        let published = try await journal.records(parentKey: "checkout-1").count
        try expect(
            published == 3 && effects.log == ["published", "published"], check,
            "the run wrote \(published) children (two events and a sleep), ran \(effects.log)")
        let finished = LockedValue(false)
        let missing = Task {
            defer { finished.withLock { $0 = true } }
            return try await other.event(of: "checkout-1", key: "receipt", as: String.self, timeout: .seconds(10))
        }
        for _ in 0..<1_000 where !finished.withLock({ $0 }) {
            await clock.advance(by: .seconds(5))
            try await Task.sleep(for: .milliseconds(1))
        }
        let none = try await missing.value
        try expect(none == nil, check, "an event never published answered \(String(describing: none))")
    }
}
