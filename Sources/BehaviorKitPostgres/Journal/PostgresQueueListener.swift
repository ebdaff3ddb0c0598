import BehaviorKitSync
import Commands
import Logging
import PostgresNIO

/// The journal's queue notifications, client side: from the first ``start()`` until
/// ``stop()``, one connection of the journal's pool listens on the table's channel
/// (``PostgresQueueNotifications``) and each notification signals the workers of its queue in
/// this process. When the connection is lost (a restart, a terminated backend), it listens
/// again after the journal's reconnection backoff, and then wakes every queue's workers: a
/// notification sent while nobody listened is lost, and they look for themselves.
final class PostgresQueueListener: Sendable {
    private let connections: PostgresJournalConnections
    private let channel: String
    private let signal: QueueSignal
    private let task = WatcherTask()

    init(connections: PostgresJournalConnections, table: String, signal: QueueSignal) {
        self.connections = connections
        self.channel = PostgresQueueNotifications.channel(table)
        self.signal = signal
    }

    /// Starts listening, unless it listens already or was stopped.
    func start() {
        task.start { [connections, channel, signal] in
            await Self.listen(connections, channel, signal)
        }
    }

    /// Stops listening and waits until the connection went back to the pool.
    func stop() async {
        await task.stop()
    }

    private static func listen(
        _ connections: PostgresJournalConnections, _ channel: String, _ signal: QueueSignal
    ) async {
        let logger = connections.logger
        var backoff = ReconnectBackoff(connections.reconnection)
        while !Task.isCancelled {
            let pool = connections.pools.checkOut()
            do {
                try await pool.client.withConnection { connection in
                    try await connection.listen(on: channel) { notifications in
                        backoff = ReconnectBackoff(connections.reconnection)
                        signal.signal(nil)  // what was sent while nobody listened
                        for try await notification in notifications {
                            signal.signal(notification.payload.isEmpty ? nil : notification.payload)
                        }
                    }
                }
            } catch {
                if !Task.isCancelled {
                    logger.debug("listening for queue notifications failed", metadata: ["error": "\(error)"])
                }
            }
            connections.pools.checkIn(pool)
            guard !Task.isCancelled, !connections.isClosed else { return }
            try? await Task.sleep(for: backoff.next())
        }
    }
}
