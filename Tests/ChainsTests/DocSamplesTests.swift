import BehaviorKitTesting
import Chains
import Testing

/// The samples of the Chains catalog (`Chains.md` and `GettingStarted.md`), as written there:
/// they must compile and do what their comments say. Change both together.
struct ChainsDocSamplesTests {
    struct StripSeparators: Handler {
        func handle(_ input: String, next: (String) throws -> String) throws -> String {
            try next(input.filter { !" +-()".contains($0) })
        }
    }

    struct PhoneSettings { var digitsOnly = true, mask: String? = "+X (XXX) XXX XX-XX" }

    struct Movie: Codable, Hashable, Sendable {
        let id: Int
        let title: String
    }

    struct ServiceDown: Error, CustomStringConvertible {
        var description: String { "the catalog is down" }
    }

    actor MovieService {
        private let movies = [42: Movie(id: 42, title: "Blade Runner"), 7: Movie(id: 7, title: "Heat")]
        private(set) var calls = 0
        private var isDown = false

        func setDown(_ down: Bool) { isDown = down }

        func movie(_ id: Int) throws -> Movie? {
            calls += 1
            if isDown { throw ServiceDown() }
            return movies[id]
        }
    }

    let phone = Pipeline {
        NonEmptyValidator()
        AllowedCharactersValidator.digits
        LengthValidator(exactly: 11)
        MaskFormatter("+X (XXX) XXX XX-XX")
    }

    let service = MovieService()

    func makeMovies() -> TieredLookup<Int, Movie> {
        let service = self.service
        let memory = MemoryCache<Int, Movie>(countLimit: 500, timeToLive: .seconds(600))
        return TieredLookup<Int, Movie>([
            memory,
            LookupSource(name: "catalog") { id in try await service.movie(id) },
        ])
    }

    /// The message of what `body` threw, or `nil`.
    func message<T>(_ body: () async throws -> T) async -> String? {
        do {
            _ = try await body()
            return nil
        } catch {
            return "\(error)"
        }
    }

    // MARK: Chains.md

    @Test func landingPageExample() async throws {
        let phone = Pipeline {
            NonEmptyValidator()
            LengthValidator(exactly: 11)
            MaskFormatter("+X (XXX) XXX XX-XX")
        }
        #expect(try phone.run("79634480209") == "+7 (963) 448 02-09")
        #expect(await message { try phone.run("7963") } == #"length: expected 11 characters, got 4 in "7963""#)

        let titles = TieredLookup<Int, String>([
            MemoryCache(countLimit: 500),
            LookupSource(name: "catalog") { id in id == 42 ? "Blade Runner" : nil },
        ])
        #expect(try await titles.answer(for: 42).tier == "catalog")
        #expect(try await titles.answer(for: 42).tier == "memory")
    }

    // MARK: GettingStarted.md

    @Test func pipeline() async throws {
        #expect(try phone.run("79634480209") == "+7 (963) 448 02-09")
        #expect(
            await message { try phone.run("7963448020a") }
                == #"allowed characters: expected only digits, got "a" at index 10 in "7963448020a""#)
        #expect(await message { try phone.run("123") } == #"length: expected 11 characters, got 3 in "123""#)

        let violation = try #require(throws: RuleViolation.self) { try phone.run("123") }
        #expect(violation.rule == "length")
        #expect(violation.expected == "11 characters")
        #expect(violation.found == "3")
    }

    @Test func takeNumbersAsPeopleTypeThem() throws {
        let formatter = MaskFormatter("+X (XXX) XXX XX-XX")
        let typedAnyHow = Pipeline {
            DigitNormalizer(mask: formatter)
            LengthValidator(exactly: formatter.placeholderCount)
            AllowedCharactersValidator.digits
            formatter
        }
        #expect(try typedAnyHow.run("+7 (963) 448 02-09") == "+7 (963) 448 02-09")
        #expect(try typedAnyHow.run("７９６３４４８０２０９") == "+7 (963) 448 02-09")
        #expect(try formatter.formatPartial("7963") == "+7 (963")
        #expect(try formatter.formatPartial("+7 (963) 4") == "+7 (963) 4")
    }

    @Test func customHandler() throws {
        let typed = Pipeline {
            StripSeparators()
            AllowedCharactersValidator.digits
            LengthValidator(exactly: 11)
            MaskFormatter("+X (XXX) XXX XX-XX")
        }
        #expect(try typed.run("+7 963 448-02-09") == "+7 (963) 448 02-09")

        let support =
            ClosureHandler<Int, String> { level, next in
                if level <= 1 { return "help desk" }
                return try next(level)
            }
            |> ClosureHandler<Int, String> { level, next in
                if level <= 2 { return "engineer" }
                return try next(level)
            }
        #expect(try support.handle(2) { _ in "nobody" } == "engineer")
        #expect(try support.handle(5) { _ in "nobody" } == "nobody")
    }

    @Test func callingNextTwiceRunsTheRestTwice() throws {
        let retryOnce = ClosureHandler<String, String> { input, next in
            do { return try next(input) } catch { return try next(input) }  // the rest runs again
        }
        var calls = 0
        let answer = try retryOnce.handle("7963") { input in
            calls += 1
            if calls == 1 {
                throw RuleViolation(rule: "flaky", expected: "a second try", found: "a first", input: input)
            }
            return input
        }
        #expect(answer == "7963")
        #expect(calls == 2)
    }

    @Test func linking() throws {
        let linked = StripSeparators() |> LengthValidator(exactly: 11) |> MaskFormatter("+X (XXX) XXX XX-XX")
        let same = StripSeparators()
            .link(with: LengthValidator(exactly: 11))
            .link(with: MaskFormatter("+X (XXX) XXX XX-XX"))
        #expect(try linked.run("7 963 448 02 09") == "+7 (963) 448 02-09")
        #expect(try same.run("7 963 448 02 09") == "+7 (963) 448 02-09")
    }

    @Test func handlerList() throws {
        let settings = PhoneSettings()

        var checks = HandlerList<String, String>()
        checks.append(NonEmptyValidator())
        if settings.digitsOnly { checks.append(AllowedCharactersValidator.digits) }
        if let mask = settings.mask { checks.append(MaskFormatter(mask)) }
        #expect(try checks.run("79634480209") == "+7 (963) 448 02-09")
        #expect(checks.handlers.count == 3)
    }

    @Test func tieredLookup() async throws {
        let movies = makeMovies()
        #expect(try await movies.answer(for: 42).tier == "catalog")
        #expect(try await movies.answer(for: 42).tier == "memory")
        #expect(await message { try await movies.value(for: 99) } == "not found: 99")
        #expect(await service.calls == 2)
    }

    @Test func singleFlight() async throws {
        let movies = makeMovies()
        try await withThrowingTaskGroup(of: Movie.self) { group in
            for _ in 0..<10 { group.addTask { try await movies.value(for: 7) } }
            for try await movie in group { #expect(movie.title == "Heat") }
        }
        // Every lookup hit the memory, joined a walk under way, or walked (and asked the catalog).
        let statistics = movies.statistics
        let catalogCalls = await service.calls
        #expect(statistics.tiers[0].hits + statistics.coalesced + catalogCalls == 10)
        #expect(statistics.tiers[1].hits == catalogCalls)
    }

    @Test func policies() async throws {
        let movies = makeMovies()
        _ = try await movies.value(for: 42)
        let calls = await service.calls

        #expect(try await movies.value(for: 42, policy: .cacheOnly).title == "Blade Runner")
        #expect(await service.calls == calls)
        #expect(try await movies.answer(for: 42, policy: .reload).tier == "catalog")
        #expect(await service.calls == calls + 1)
        #expect(movies.statistics.tiers[0].writes == 2)
        #expect(await message { try await movies.value(for: 1, policy: .cacheOnly) } == "not found: 1")
        #expect(await service.calls == calls + 1)
    }

    @Test func circuitBreakerOnAManualClock() async throws {
        let service = self.service
        let clock = ManualClock()
        let guarded = TieredLookup<Int, Movie>(
            [MemoryCache(clock: clock), LookupSource(name: "catalog") { id in try await service.movie(id) }],
            circuitBreaker: CircuitBreakerPolicy(failureThreshold: 3, coolDown: .seconds(10)),
            clock: clock)

        await service.setDown(true)
        #expect(
            await message { try await guarded.value(for: 1) } == "unavailable: 1 (catalog failed: the catalog is down)")
        for id in 2...3 { _ = try? await guarded.value(for: id) }
        #expect(
            await message { try await guarded.value(for: 42) }
                == "unavailable: 42 (catalog failed: circuit open after repeated failures, retried in 10 s)")
        #expect(guarded.statistics.tiers[1].isCircuitOpen)

        await service.setDown(false)
        await clock.advance(by: .seconds(10))
        #expect(try await guarded.value(for: 42).title == "Blade Runner")
        #expect(!guarded.statistics.tiers[1].isCircuitOpen)

        let lines = guarded.statistics.tiers.map { tier in
            "\(tier.name) \(tier.hits) \(tier.misses) \(tier.errors) \(tier.skipped) \(tier.writes)"
        }
        #expect(lines == ["memory 0 5 0 0 1", "catalog 1 0 3 1 0"])
    }
}
