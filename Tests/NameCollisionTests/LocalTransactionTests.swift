import BehaviorKitSync
import Commands
import Testing

/// A type of the app's own named `Transaction` (a bank transaction, say): declared in the module,
/// it wins over the imported one, and `Commands.Transaction` still names BehaviorKit's.
struct Transaction: Equatable, Sendable {
    var cents: Int
}

struct LocalTransactionTests {
    @Test func theLocalTypeWinsAndTheQualifiedNameReachesOurs() async throws {
        let payment = Transaction(cents: 990)
        let ledger = LockedLedger()
        let book = ClosureCommand("book") {
            ledger.add(payment)
        } undo: {
            ledger.remove(payment)
        }
        try await Commands.Transaction("book payment", steps: [book]).run()
        #expect(ledger.entries == [Transaction(cents: 990)])
    }
}

/// The payments booked, in order.
final class LockedLedger: Sendable {
    private let storage = LockedValue<[Transaction]>([])
    var entries: [Transaction] { storage.withLock { $0 } }
    func add(_ payment: Transaction) { storage.withLock { $0.append(payment) } }
    func remove(_ payment: Transaction) { storage.withLock { $0.removeAll { $0 == payment } } }
}
