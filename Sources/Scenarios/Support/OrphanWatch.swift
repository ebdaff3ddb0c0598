import Foundation

/// A fleet worker's watch on its driver: once the driver is gone (however it ended: the worker
/// is then adopted by another parent), the worker exits instead of working for ever.
enum OrphanWatch {
    /// Starts watching; cancel the task to stop.
    ///
    /// - Parameter driver: the driver's process id (a driver that died before this worker started
    ///   is noticed too); `nil`: the parent at start.
    static func start(driver: Int32?) -> Task<Void, Never> {
        let parent = driver ?? getppid()
        return Task.detached {
            while getppid() == parent {
                do { try await Task.sleep(for: .milliseconds(100)) } catch { return }  // cancelled
            }
            exit(0)
        }
    }
}
