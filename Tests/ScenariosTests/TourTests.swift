import Scenarios
import Testing

struct TourTests {
    @Test func tourRunsThePhoneAndMoviesStopsQuicklyAndTheSameEveryTime() async throws {
        let (console, recording) = Console.recording()
        try await Tour.run(on: console)
        let lines = recording.lines
        let phone = try #require(
            lines.firstIndex(of: "== Phone number: a validation pipeline (behaviorkit phone 79634480209 7963448) =="))
        #expect(lines[phone + 1] == "+7 (963) 448 02-09")
        #expect(lines[phone + 2] == #"error: length: expected 11 characters, got 7 in "7963448""#)
        let movies = try #require(
            lines.firstIndex(of: "== Movies: a tiered lookup (behaviorkit movies --count 200 --failure-rate 0.1) =="))
        #expect(
            lines[movies + 1]
                == "Looking up movies 0…199: memory → disk → primary → fallback (seed 42, failure rate 10%)")
        #expect(lines.contains("primary    178       0      22        0       0             0         20 ms"))

        let (again, secondRecording) = Console.recording()
        try await Tour.run(on: again)
        #expect(secondRecording.lines == lines)
    }

    @Test func tourShowsTheFiveScenariosInTheOrderOfScenariosMdThenTheCrossingTheLifecycleAndTheOrderWorkflow()
        async throws
    {
        let (console, recording) = Console.recording()
        try await Tour.run(on: console)
        let headings = recording.lines.filter { $0.hasPrefix("== ") }
        #expect(
            headings == [
                "== Garage: commands, a transaction, a batch invoker (behaviorkit garage) ==",
                "== Cart: undo history over commands (behaviorkit cart) ==",
                "== Movies: a tiered lookup (behaviorkit movies --count 200 --failure-rate 0.1) ==",
                "== Vehicle: a state machine (behaviorkit vehicle --instant) ==",
                "== Phone number: a validation pipeline (behaviorkit phone 79634480209 7963448) ==",
                "== Crossing: a statechart (behaviorkit crossing) ==",
                "== Lifecycle: a durable state machine survives a kill (behaviorkit lifecycle) ==",
                "== Order workflow: a durable workflow finishes in another worker (behaviorkit order-workflow) ==",
            ])
    }
}
