import Commands
import Foundation
import GRDB

extension Database.BusyMode {
    /// Waits for another process's lock for at least `limit`, looking again every millisecond.
    ///
    /// SQLite's own timeout sleeps longer and longer between looks (up to 100 ms), so that with
    /// several processes writing one file a waiting writer can be passed over for seconds (and
    /// a worker's lease renewal arrive late); a short, fixed pause keeps the wait close to first
    /// come, first served. The count of looks stands for the time waited, so the callback needs
    /// no state and several connections can wait at once.
    static func polling(for limit: Duration) -> Database.BusyMode {
        let looks = Int32(clamping: max(0, limit.journalMilliseconds))
        return .callback { retries in
            guard retries < looks else { return false }
            usleep(1_000)
            return true
        }
    }
}

/// Runs `open` again while it fails because another process holds a lock (a first open
/// switching the file to WAL, which SQLite refuses without calling the busy handler), for at
/// most `limit`: the journal's opener and the disk cache's share it.
func retryingWhileBusy<T>(for limit: Duration, _ open: () throws -> T) throws -> T {
    let deadline = ContinuousClock.now.advanced(by: limit)
    var pause = Duration.milliseconds(1)
    while true {
        do {
            return try open()
        } catch let error as DatabaseError
            where error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED
        {
            if ContinuousClock.now >= deadline { throw error }
            Thread.sleep(forTimeInterval: pause.timeInterval)
            pause = min(pause * 2, .milliseconds(100))
        }
    }
}
