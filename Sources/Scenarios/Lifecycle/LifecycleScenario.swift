import Commands
import DurableMachines
import Foundation

/// A durable lifecycle survives a kill: a child process starts parcel p1 and pays it, and is
/// killed (SIGKILL) before the payment's effect runs; this process retries the payment (answered
/// from the history, not applied again), runs the effect the child left, and fires the delivery
/// timer.
public enum LifecycleScenario {
    /// The tour's stop.
    public static let tourStop = TourStop(
        command: "lifecycle", title: "Lifecycle: a durable state machine survives a kill"
    ) {
        console in
        try await run(console: console)
    }

    /// Runs the scenario in a folder of its own, deleted after.
    public static func run(console: Console) async throws {
        let folder = try ScenarioFolder("lifecycle")
        defer { folder.remove() }
        let path = folder.path + "/parcels.sqlite"
        let executable = try behaviorkit()
        let child = try ChildProcess(
            executable, ["lifecycle", "--child", "--store", path], log: folder.path + "/child.log")
        let store = try await waitForPayment(path, child: child)
        child.signal(SIGKILL)
        _ = await child.exit()
        console.print("A child process started parcel p1 and paid it (request pay-1); it was killed (SIGKILL)")
        console.print("before the payment's effect ran.")
        let parcels = ParcelLifecycle.machine(store)
        let retried = try await parcels.send(.pay, to: "p1", id: "pay-1")
        console.print(
            "Retried request pay-1: \(retried.isReplay ? "answered from the history" : "applied"), step \(retried.sequence)."
        )
        let ran = try await parcels.runEffects(owner: "tour")
        console.print("This process ran the \(ran) effect the child left: p1 is \(try await state(parcels)).")
        // An hour later, as far as timers go: the delivery timer is due.
        let later = DurableMachine(
            ParcelLifecycle.name, definition: ParcelLifecycle.definition, store: store, clock: AnHourLater())
        let fired = try await later.fireDueTimers()
        console.print("An hour later, \(fired.count) timer fired: p1 is \(try await state(parcels)).")
        console.print("History of p1:")
        for step in try await parcels.history(of: "p1") {
            console.print(
                "  \(step.sequence). \(step.trigger) → \(step.configuration.map { "\($0)" }.joined(separator: ", "))")
        }
        try await store.close()
    }

    /// The `behaviorkit` binary: this process, or the one beside it (a test bundle's).
    static func behaviorkit() throws -> String {
        let this =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        if (this as NSString).lastPathComponent == "behaviorkit" { return this }
        let beside = ((this as NSString).deletingLastPathComponent as NSString).appendingPathComponent("behaviorkit")
        guard FileManager.default.isExecutableFile(atPath: beside) else {
            throw MachineStoreLocationError(
                description: "the lifecycle scenario runs a child 'behaviorkit': none beside \(this)")
        }
        return beside
    }

    /// The child's side: starts p1, pays it, and waits to be killed.
    public static func runChild(store path: String) async throws {
        let store = try await MachineStoreLocation.open(path)
        let parcels = ParcelLifecycle.machine(store)
        try await parcels.start("p1", context: Parcel())
        try await parcels.send(.pay, to: "p1", id: "pay-1")
        StandardStream.output.writeLine("paid")
        try await Task.sleep(for: .seconds(3600))
    }

    /// Opens the store once the child paid p1 (within 30 s).
    private static func waitForPayment(_ path: String, child: ChildProcess) async throws -> any MachineStore {
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            if FileManager.default.fileExists(atPath: path), child.poll() == nil,
                let store = try? await MachineStoreLocation.open(path)
            {
                if try await ParcelLifecycle.machine(store).instance("p1")?.state == .paid { return store }
                try await store.close()
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        child.signal(SIGKILL)
        throw MachineStoreLocationError(description: "the child process did not pay p1 within 30 s")
    }

    private static func state(_ parcels: DurableMachine<ParcelState, ParcelEvent, Parcel>) async throws -> String {
        try await parcels.instance("p1").map { "\($0.state)" } ?? "missing"
    }
}

/// The system's time plus an hour.
private struct AnHourLater: WallClock {
    var currentDate: Date { Date().addingTimeInterval(3600) }
}
