import BehaviorKitSync
import BehaviorKitTesting
import Commands
import Testing

/// The samples of the Commands catalog (`Commands.md` and `GettingStarted.md`), as written there:
/// they must compile and do what their comments say. Change both together.
struct CommandsDocSamplesTests {
    actor Cart {
        private(set) var items: [String: Int] = [:]

        func add(_ item: String, _ count: Int) { items[item, default: 0] += count }

        func remove(_ item: String, _ count: Int) throws(CartError) {
            let have = items[item, default: 0]
            guard have >= count else { throw CartError(item: item, have: have) }
            items[item] = have == count ? nil : have - count
        }
    }

    struct CartError: Error, CustomStringConvertible {
        let item: String, have: Int
        var description: String { "only \(have) \(item) in the cart" }
    }

    enum PaymentError: Error { case declined }

    enum CourierError: Error { case unreachable }

    let cart = Cart()

    var addApples: ClosureCommand {
        ClosureCommand("Add 2 apples") {
            await cart.add("apples", 2)
        } undo: {
            try await cart.remove("apples", 2)
        }
    }

    var addPears: ClosureCommand {
        ClosureCommand("Add 3 pears") {
            await cart.add("pears", 3)
        } undo: {
            try await cart.remove("pears", 3)
        }
    }

    var reservePears: ClosureCommand {
        ClosureCommand("reserve pears") {
            await cart.add("pears", 3)
        } undo: {
            try await cart.remove("pears", 3)
        }
    }

    let charge = ClosureCommand("charge card") { throw PaymentError.declined }

    // MARK: Commands.md

    @Test func landingPageExample() async throws {
        actor Cart {
            var items: [String: Int] = [:]
            func add(_ item: String, _ count: Int) { items[item, default: 0] += count }
        }
        let cart = Cart()
        let history = UndoHistory()
        try await history.perform(
            ClosureCommand("Add 2 apples") {
                await cart.add("apples", 2)
            } undo: {
                await cart.add("apples", -2)
            })
        #expect(history.status.undoMenuTitle == "Undo Add 2 apples")
        try await history.undo()
        #expect(await cart.items == ["apples": 0])
        try await history.redo()
        #expect(await cart.items == ["apples": 2])
    }

    // MARK: GettingStarted.md

    @Test func writeACommand() async throws {
        try await addApples.execute()
        #expect(await cart.items == ["apples": 2])
        try await addApples.undo()
        #expect(await cart.items == [:])

        let sendReceipt = ClosureCommand("Send receipt") { print("receipt sent") }
        #expect(!sendReceipt.canUndo)
        await #expect(throws: CommandError.cannotUndo(command: "Send receipt")) { try await sendReceipt.undo() }
        #expect("\(CommandError.cannotUndo(command: "Send receipt"))" == "the command 'Send receipt' cannot be undone")
    }

    @Test func undoAndRedo() async throws {
        let history = UndoHistory(limit: 100)
        try await history.perform(addApples)
        try await history.perform(addPears)
        #expect(history.undoActionName == "Add 3 pears")
        #expect(history.status.undoMenuTitle == "Undo Add 3 pears")

        try await history.undo()
        #expect(await cart.items == ["apples": 2])
        #expect(history.undoActionName == "Add 2 apples")
        #expect(history.redoActionName == "Add 3 pears")
        try await history.redo()
        #expect(await cart.items == ["apples": 2, "pears": 3])

        var message = ""
        do {
            try await history.redo()
        } catch {
            message = "\(error)"
        }
        #expect(message == "nothing to redo")

        history.markClean()
        #expect(history.isClean)
        try await history.undo()
        #expect(!history.isClean)
        try await history.redo()
        #expect(history.isClean)
    }

    @Test func openGroupsRenamesAndSetIndex() async throws {
        let history = UndoHistory(limit: 100)
        try await history.perform(addApples)
        try await history.perform(addPears)

        await history.beginGroup("Restock")
        try await history.perform(addApples)
        try await history.perform(addPears)
        try await history.endGroup()
        #expect(history.undoActionName == "Restock")
        try history.setActionName("Refill")
        #expect(history.status.undoMenuTitle == "Undo Refill")

        #expect(history.actionNames == ["Add 2 apples", "Add 3 pears", "Refill"])
        try await history.setIndex(1)
        #expect(await cart.items == ["apples": 2])
        #expect(history.index == 1)
        try await history.setIndex(3)
        #expect(await cart.items == ["apples": 4, "pears": 6])
    }

    @Test func aCancelledTransactionCompensates() async throws {
        let policy = CompensationPolicy(
            retries: 2, backoff: .exponential(initial: .milliseconds(100)), deadline: .seconds(30))
        let slowCharge = ClosureCommand("charge card") { try await Task.sleep(for: .seconds(5)) }
        let shielded = Transaction("checkout", steps: [reservePears, slowCharge], compensation: policy)
        let task = Task { try await shielded.run() }
        task.cancel()
        let result = await task.result
        #expect(
            "\(result)"
                == "failure(transaction 'checkout' was cancelled at step 2 'charge card'; compensated step 1 'reserve pears')"
        )
        #expect(await cart.items == [:])
    }

    @Test func transactionCompensatesInReverse() async throws {
        await cart.add("apples", 2)
        await cart.add("pears", 3)
        let undone = LockedValue<[String]>([])
        let checkout = Transaction("checkout", steps: [addApples, reservePears, charge]) { event in
            if case .compensated(_, let command) = event { undone.withLock { $0.append("undid \(command.name)") } }
        }
        var failure: TransactionError?
        do {
            try await checkout.run()
        } catch {
            failure = error
        }
        let error = try #require(failure)
        #expect("\(error)" == "transaction 'checkout' failed at step 3 'charge card': declined")
        #expect(error.failedStep?.index == 2)
        #expect(error.compensationFailures.isEmpty)
        #expect(undone.withLock { $0 } == ["undid reserve pears", "undid Add 2 apples"])
        #expect(await cart.items == ["apples": 2, "pears": 3])
    }

    @Test func failedCompensationIsListed() async throws {
        await cart.add("pears", 3)
        let bookCourier = ClosureCommand("book courier") {
            // books a courier (the guide prints "courier booked")
        } undo: {
            throw CourierError.unreachable
        }
        var failure: TransactionError?
        do {
            try await Transaction("checkout", steps: [reservePears, bookCourier, charge]).run()
        } catch {
            failure = error
        }
        let error = try #require(failure)
        #expect(
            "\(error)"
                == "transaction 'checkout' failed at step 3 'charge card': declined; "
                + "undo failed for step 2 'book courier': unreachable")
        #expect(error.compensationFailures.map(\.step.name) == ["book courier"])
        #expect(await cart.items == ["pears": 3])
    }

    @Test func scopedTransaction() async throws {
        let payment = try await transaction("checkout") { step in
            try await step(reservePears)
            return try await step("charge card") {
                "payment-17"  // what the bank answered
            } compensate: { payment in
                print("refund \(payment)")
            }
        }
        #expect(payment == "payment-17")
        #expect(await cart.items == ["pears": 3])
    }

    @Test func serialInvoker() async throws {
        let invoker = SerialInvoker()
        invoker.submit(addApples)
        try await invoker.perform(addPears)
        invoker.submit(charge)
        await invoker.idle()
        #expect(invoker.finishedCount == 2)
        #expect(invoker.failed.map(\.description) == ["failed: charge card: declined"])
        #expect(await cart.items == ["apples": 2, "pears": 3])
    }

    @Test func batchInvokerOnAManualClock() async throws {
        let clock = ManualClock()
        let batches = BatchInvoker(batchSize: 10, timeLimit: .seconds(2), clock: clock)
        batches.submit(addApples)
        batches.submit(addPears)
        #expect(batches.pendingCount == 2)
        await clock.waitForSleepers()
        await clock.advance(by: .seconds(2))
        while batches.pendingCount > 0 { await Task.yield() }
        await batches.idle()
        #expect(batches.finishedCount == 2)
        #expect(await cart.items == ["apples": 2, "pears": 3])
    }
}
