import BehaviorKitTesting
import Testing

@testable import BehaviorKitPostgres

/// The waits between attempts, and the deadline, on a clock the test drives: no real time.
struct ReconnectLoopTests {
    let names = PostgresJournalNames(server: "db:5432", database: "orders", table: "jobs")

    @Test func theWaitsDoubleUpToTheCapWithoutJitter() {
        var backoff = ReconnectBackoff(
            .init(initialBackoff: .milliseconds(50), maximumBackoff: .milliseconds(300), jitter: 0, seed: 1))
        let waits = (0..<6).map { _ in backoff.next() }
        #expect(waits == [50, 100, 200, 300, 300, 300].map { Duration.milliseconds($0) })
    }

    @Test func jitterShortensEachWaitAndTheSeedRepeatsIt() {
        let policy = PostgresCommandJournal.Reconnection(
            initialBackoff: .milliseconds(100), maximumBackoff: .seconds(1), jitter: 0.5, seed: 42)
        var first = ReconnectBackoff(policy)
        var second = ReconnectBackoff(policy)
        let waits = (0..<20).map { _ in first.next() }
        #expect(waits == (0..<20).map { _ in second.next() })
        var full = Duration.milliseconds(100)
        for wait in waits {
            #expect(wait <= full && wait >= full / 2, "\(wait) is not within [\(full / 2), \(full)]")
            full = min(full * 2, .seconds(1))
        }
        var other = ReconnectBackoff(.init(initialBackoff: .milliseconds(100), jitter: 0.5, seed: 43))
        #expect((0..<20).map { _ in other.next() } != waits)
    }

    @Test func attemptsAreRetriedUntilOneAnswers() async throws {
        let clock = ImmediateClock()
        let loop = ReconnectLoop(
            clock: clock, policy: .init(initialBackoff: .milliseconds(100), maximumBackoff: .seconds(1), jitter: 0))
        let start = clock.now
        var attempts = 0
        let answer = try await loop.run(
            { _ throws(AttemptFailure) in
                attempts += 1
                guard attempts == 4 else { throw .retry("connection refused") }
                return "answered"
            }, giveUp: { self.names.unreachable(for: .seconds(30), $0) })
        #expect(answer == "answered" && attempts == 4)
        #expect(start.duration(to: clock.now) == .milliseconds(100 + 200 + 400))
    }

    /// A task that ignores its cancellation (a journal's write, committed in its caller's task)
    /// waits between attempts all the same; one that follows it stops waiting.
    @Test func aWriteThatIgnoresCancellationIsTriedAgainInACancelledTask() async throws {
        let clock = ImmediateClock()
        let loop = ReconnectLoop(clock: clock, policy: .init(initialBackoff: .milliseconds(100), jitter: 0))
        let names = self.names
        @Sendable func run(ignoring: Bool) async throws -> String {
            try await Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return try await PostgresJournalConnections.$ignoresCancellation.withValue(ignoring) {
                    var attempts = 0
                    return try await loop.run(
                        { _ throws(AttemptFailure) in
                            attempts += 1
                            guard attempts == 2 else { throw .retry("connection refused") }
                            return "answered"
                        }, giveUp: { names.unreachable(for: .seconds(30), $0) },
                        cancelled: { names.error(.ioFailed, $0) })
                }
            }.value
        }
        #expect(try await run(ignoring: true) == "answered")
        await #expect(throws: PostgresStoreError.self) { _ = try await run(ignoring: false) }
    }

    @Test func theDeadlineEndsTheAttemptsNamingTheLastCause() async throws {
        let clock = ImmediateClock()
        let loop = ReconnectLoop(clock: clock, policy: .init(deadline: .seconds(2), jitter: 0.3, seed: 7))
        let start = clock.now
        var attempts = 0
        do {
            _ = try await loop.run(
                { _ throws(AttemptFailure) -> Int in
                    attempts += 1
                    throw .retry(attempts == 1 ? "the database system is starting up" : "connection refused")
                }, giveUp: { self.names.unreachable(for: .seconds(2), $0) })
            Issue.record("an attempt answered")
        } catch {
            #expect(error.code == .unreachable)
            #expect(
                "\(error)"
                    == "cannot reach PostgreSQL at db:5432/orders for 2 s: connection refused "
                    + "(journal jobs; nothing was written)")
        }
        #expect(start.duration(to: clock.now) == .seconds(2), "the last wait is cut to the deadline")
        #expect(attempts > 3)
    }

    @Test func aCancellationWhileWaitingEndsTheAttemptsSayingSo() async throws {
        let loop = ReconnectLoop(clock: ImmediateClock(), policy: .init(seed: 5))
        do {
            _ = try await loop.run(
                { _ throws(AttemptFailure) -> Int in
                    withUnsafeCurrentTask { $0?.cancel() }  // the caller gives up during the attempt
                    throw .retry("connection refused")
                }, giveUp: { self.names.unreachable(for: .seconds(30), $0) },
                cancelled: { self.names.error(.ioFailed, $0) })
            Issue.record("an attempt answered")
        } catch {
            #expect(error.code == .ioFailed)
            #expect(error.reason == "cancelled while waiting to try again, after connection refused")
        }
    }

    @Test func aFinalFailureIsNotRetried() async throws {
        let loop = ReconnectLoop(clock: ImmediateClock(), policy: .init())
        var attempts = 0
        await #expect(throws: PostgresStoreError.self) {
            _ = try await loop.run(
                { _ throws(AttemptFailure) -> Int in
                    attempts += 1
                    throw .final(self.names.error(.authenticationFailed, "password authentication failed"))
                }, giveUp: { self.names.unreachable(for: .seconds(30), $0) })
        }
        #expect(attempts == 1)
    }

    @Test(arguments: [
        (
            "PSQLError(code: connectionError, underlying: read(descriptor:pointer:size:): Connection reset by peer "
                + "(errno: 104))", "the server reset the connection", true
        ),
        (
            "PSQLError(code: server, serverInfo: [sqlState: 57P03, file: postmaster.c, line: 2432, message: the "
                + "database system is shutting down, routine: ProcessStartupPacket, localizedSeverity: FATAL])",
            "the database system is shutting down (SQLSTATE 57P03)", true
        ),
        (
            "PSQLError(code: server, serverInfo: [sqlState: 28P01, message: password authentication failed for user "
                + "\"app\", localizedSeverity: FATAL])",
            "password authentication failed for user \"app\" (SQLSTATE 28P01)", false
        ),
        ("PSQLError(code: tooManyParameters)", "tooManyParameters", true),
    ])
    func aFailedConnectionIsNamedOnOneLine(logged: String, reason: String, transient: Bool) {
        let error = names.connectError(logged)
        #expect(error.reason == reason)
        #expect(!"\(error)".contains("PSQLError") && !"\(error)".contains("\n"))
        #expect(PostgresJournalNames.isTransient(connectFailure: logged) == transient)
    }
}
