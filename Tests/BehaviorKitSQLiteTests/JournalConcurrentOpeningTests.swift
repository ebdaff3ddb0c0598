import BehaviorKitSQLite
import BehaviorKitSync
import Foundation
import Testing

/// Many openers of one new file at once (threads of one process here; the CLI tests do it with
/// processes): none takes the half-created file for a damaged one.
struct JournalConcurrentOpeningTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
    }

    @Test func thirtyTwoOpenersOfOneNewJournalAllSucceed() throws {
        let failures = LockedValue<[String]>([])
        for trial in 0..<10 {
            let path = folder.path("new-\(trial).journal")
            DispatchQueue.concurrentPerform(iterations: 32) { _ in
                do {
                    _ = try SQLiteCommandJournal(path: path)
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
        }
        let all = failures.withLock { $0 }
        #expect(all.isEmpty, "\(all.count) of 320 opens failed: \(all.prefix(2))")
    }
}
