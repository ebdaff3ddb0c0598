import PostgresNIO
import Testing

@testable import BehaviorKitPostgres

/// A journal's pool runs no keep-alive queries and keeps one connection open, unless its
/// configuration asks otherwise: postgres-nio arms two timers for every connection given back to
/// a pool that has neither.
struct PostgresJournalPoolsTests {
    func configuration() -> PostgresClient.Configuration {
        PostgresClient.Configuration(
            host: "localhost", username: "app", password: nil, database: "orders", tls: .disable)
    }

    @Test func aDefaultConfigurationGetsNoKeepAliveAndOneConnectionKept() {
        let options = PostgresJournalPools.withoutIdleTimers(configuration()).options
        #expect(options.keepAliveBehavior == nil)
        #expect(options.minimumConnections == 1)
    }

    @Test func whatAConfigurationAsksForItselfStays() {
        var custom = configuration()
        custom.options.keepAliveBehavior = .init(frequency: .seconds(5))
        custom.options.minimumConnections = 3
        let options = PostgresJournalPools.withoutIdleTimers(custom).options
        #expect(options.keepAliveBehavior?.frequency == .seconds(5))
        #expect(options.minimumConnections == 3)

        var one = configuration()
        one.options.maximumConnections = 1
        #expect(PostgresJournalPools.withoutIdleTimers(one).options.minimumConnections == 0)
    }
}
