import Foundation
import GRDB

/// Holds a database's write lock on a thread of its own, as another process would.
final class WriteLockHolder: Sendable {
    private let queue: DatabaseQueue
    private let released = DispatchSemaphore(value: 0)

    init(path: String) throws { queue = try DatabaseQueue(path: path) }

    func acquire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread { [queue, released] in
                try? queue.inDatabase { db in
                    try db.execute(sql: "BEGIN IMMEDIATE")
                    continuation.resume()
                    released.wait()
                    try db.execute(sql: "ROLLBACK")
                }
            }
        }
    }

    func release() { released.signal() }
}
