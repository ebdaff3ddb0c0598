extension PostgresCommandJournal {
    /// How a journal rides out a server that restarts, drops its connections or goes away for a
    /// while: each request tries again, waiting longer each time, until ``deadline``.
    ///
    /// ```swift
    /// let journal = try await PostgresCommandJournal(
    ///     url: "postgres://app@db.internal/orders", reconnection: .init(deadline: .seconds(10)))
    /// ```
    ///
    /// A read runs again on a new connection, and so does a batch of writes that answer the same
    /// when run again (``resolvesLostCommits`` says which). Any other batch runs in a transaction whose
    /// outcome the journal asks the server for when the connection was lost before it was
    /// answered (`txid_status`): it runs again when it was rolled back, is answered when it
    /// committed, and fails with `.outcomeUnknown` when the server cannot tell. Once the deadline
    /// passes, the request fails with `.unreachable`, naming the server and the last cause.
    /// Opening a journal does not wait: it fails at once when the server cannot be reached.
    public struct Reconnection: Sendable, Hashable {
        /// How long a request keeps trying, from its start; 30 seconds unless told otherwise.
        public var deadline: Duration
        /// How long an attempt waits for the server to answer a request before it takes the
        /// connection for lost (closes it, and tries again or asks how the write ended):
        /// 10 seconds unless told otherwise. The journal's statements take milliseconds.
        public var requestTimeout: Duration
        /// The first wait after a failed attempt; each wait then doubles.
        public var initialBackoff: Duration
        /// The longest wait between two attempts.
        public var maximumBackoff: Duration
        /// How much of each wait is random, from 0 (none) to 1 (anywhere from nothing to the
        /// whole wait), so that the workers of a fleet do not all come back at once.
        public var jitter: Double
        /// Whether a batch of writes runs in a transaction whose outcome the journal can ask the
        /// server for (`txid_status`) when the connection is lost while it commits, and so runs
        /// again when it was rolled back: on by default. Off, a batch is one statement, answered
        /// once the server confirmed its commit (two round trips on the wire), instead of three
        /// statements (`BEGIN`; the batch, which reads the transaction's id too; `COMMIT`:
        /// postgres-nio sends a statement once the one before was answered), and a connection lost while
        /// it ran fails its writes with `.ioFailed` or `.outcomeUnknown` (they may or may not have
        /// been made);
        /// only the batches that never reached a connection are tried again. A batch of begins,
        /// claims, lease renewals, enqueues, appended steps and settlements (a transaction's too,
        /// with the steps they write) is one statement in its own transaction either way, answered
        /// once the server confirmed its commit, and tried again on a new connection, unasked: a begin run again finds the token its lost run left on the record
        /// it took, and answers as that run would have (another begin of the key finds it busy);
        /// the records a lost claim took wait for their lease, then any worker takes
        /// them; a renewal extends the same leases again; an enqueue or an append run again finds
        /// the record its lost run wrote, with the same entry, and answers it; a settlement run
        /// again finds its record settled as it settles it, and answers that. A release or a
        /// prune in the batch makes it a transaction whose outcome is asked.
        public var resolvesLostCommits: Bool
        /// The seed of the random part of the waits, for tests that want the same waits every
        /// run; `nil` (the default) seeds it from the system's generator.
        public var seed: UInt64?

        /// Creates the reconnection policy of a journal.
        ///
        /// ```swift
        /// PostgresCommandJournal.Reconnection(deadline: .seconds(5), seed: 42)  // tests
        /// ```
        public init(
            deadline: Duration = .seconds(30), requestTimeout: Duration = .seconds(10),
            initialBackoff: Duration = .milliseconds(50),
            maximumBackoff: Duration = .seconds(1), jitter: Double = 0.5, resolvesLostCommits: Bool = true,
            seed: UInt64? = nil
        ) {
            self.deadline = deadline
            self.requestTimeout = requestTimeout
            self.initialBackoff = initialBackoff
            self.maximumBackoff = maximumBackoff
            self.jitter = jitter
            self.resolvesLostCommits = resolvesLostCommits
            self.seed = seed
        }
    }
}
