/// What the `behaviorkit` under test was built with: the package's traits reach the tests too, so
/// a test of a `postgres://` command skips plainly in a build without the PostgreSQL trait.
enum BuildTraits {
    /// Why the CLI's PostgreSQL commands cannot be tested here, or `nil` when they can: the trait
    /// is on and a throwaway cluster can be started.
    static var postgreSQLUnavailableReason: String? {
        #if PostgreSQL
        PostgresTestCluster.unavailableReason
        #else
        "behaviorkit was built without the PostgreSQL trait (swift test --traits PostgreSQL)"
        #endif
    }

    /// Whether the tool serves the web console (the Console trait).
    static var console: Bool {
        #if Console
        true
        #else
        false
        #endif
    }

    /// Whether the tool opens `postgres://` locations (the PostgreSQL trait).
    static var postgreSQL: Bool {
        #if PostgreSQL
        true
        #else
        false
        #endif
    }
}
