public import Commands

extension JournalConsole {
    /// How a console behaves: read-only or not, page sizes, the window of "what changed", and
    /// the clock it reads that window by.
    public struct Options: Sendable {
        /// Whether the console only reads: no action forms on its pages, and every action
        /// (`POST`) refused with 403.
        public var readOnly: Bool
        /// The most records a page of the records list shows (1 to 1,000).
        public var pageSize: Int
        /// How far back the overview's "changed recently" list looks.
        public var recentWindow: Duration
        /// The most records the overview counts for one settled status: a status with more shows
        /// "at least" that many, so that the overview stays an indexed read of bounded size.
        public var countLimit: Int
        /// Strings never shown on a page or written to a log (a database password, a URL): each
        /// is replaced by `***` in every error the console shows. Credentials in URLs
        /// (`scheme://user:password@host`) are hidden without being listed here.
        public var secrets: [String]
        /// The clock the overview's window and the pages' "ago" are read by.
        public var clock: any WallClock

        /// Options; the defaults allow actions, show 50 records a page, look 5 minutes back and
        /// count up to 1,000 records of a settled status.
        public init(
            readOnly: Bool = false, pageSize: Int = 50, recentWindow: Duration = .seconds(300),
            countLimit: Int = 1_000, secrets: [String] = [], clock: any WallClock = SystemWallClock()
        ) {
            self.readOnly = readOnly
            self.pageSize = min(max(pageSize, 1), 1_000)
            self.recentWindow = recentWindow
            self.countLimit = min(max(countLimit, 1), 100_000)
            self.secrets = secrets
            self.clock = clock
        }
    }
}
