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

    @Test func thirtyTwoOpenersOfOneNewJournalAllSucceed() async throws {
        let failures = LockedValue<[String]>([])
        let folder = self.folder
        // On threads of their own: an opening that waits for the file's lock blocks its thread, and
        // the tests' shared threads must go on meanwhile.
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread {
                for trial in 0..<4 {
                    let path = folder.path("new-\(trial).journal")
                    DispatchQueue.concurrentPerform(iterations: 32) { _ in
                        do {
                            _ = try SQLiteCommandJournal(path: path)
                        } catch {
                            failures.withLock { $0.append("\(error)") }
                        }
                    }
                }
                done.resume()
            }
        }
        let all = failures.withLock { $0 }
        #expect(all.isEmpty, "\(all.count) of 128 opens failed: \(all.prefix(2))")
    }
}
