import Commands
import DurableMachines
import PostgresNIO

/// A batch of machine commits as the commit function (v2) takes them: one typed array per
/// parameter (``PostgresMachineCommitParameter``), no JSON.
struct PostgresMachineCommitArguments: Sendable {
    typealias Texts = PostgresNullableArray<String>
    typealias Numbers = PostgresNullableArray<Int64>
    typealias Bytes = PostgresNullableArray<ByteBuffer>

    var machines = Texts(), keys = Texts(), events = Texts()
    var expected = Numbers(), versions = Numbers(), ats = Numbers()
    var snapshots = Bytes(), bodies = Bytes()
    var stateCommits = Numbers(), stateNames = Texts(), stateAts = Numbers()
    var disarmCommits = Numbers(), disarmIDs = Texts()
    var armCommits = Numbers(), armIDs = Texts(), armDues = Numbers(), armBodies = Bytes()
    var stopCommits = Numbers(), stopIDs = Texts()
    var startCommits = Numbers(), startIDs = Texts(), startBodies = Bytes(), startOwners = Texts()
    var startLeases = Numbers(), startAttempts = Numbers()

    init(_ commits: [MachineCommit]) {
        for commit in commits { append(commit) }
    }

    /// Adds `commit` as the next one.
    mutating func append(_ commit: MachineCommit) {
        machines.elements.append(commit.key.machine)
        let position = Int64(machines.elements.count)
        keys.elements.append(commit.key.key)
        expected.elements.append(commit.expectedVersion)
        versions.elements.append(commit.version)
        events.elements.append(commit.step.eventID)
        ats.elements.append(commit.step.at.journalMilliseconds)
        snapshots.elements.append(ByteBuffer(bytes: commit.snapshot))
        bodies.elements.append(ByteBuffer(bytes: commit.step.body))
        for state in commit.states {
            stateCommits.elements.append(position)
            stateNames.elements.append(state.state)
            stateAts.elements.append(state.enteredAt.journalMilliseconds)
        }
        for id in commit.disarmedTimers {
            disarmCommits.elements.append(position)
            disarmIDs.elements.append(id)
        }
        for timer in Self.lastByID(commit.armedTimers, \.id) {
            armCommits.elements.append(position)
            armIDs.elements.append(timer.id)
            armDues.elements.append(timer.dueAt.journalMilliseconds)
            armBodies.elements.append(ByteBuffer(bytes: timer.body))
        }
        for id in commit.stoppedEffects {
            stopCommits.elements.append(position)
            stopIDs.elements.append(id)
        }
        for effect in Self.lastByID(commit.startedEffects, \.id) {
            startCommits.elements.append(position)
            startIDs.elements.append(effect.id)
            startBodies.elements.append(ByteBuffer(bytes: effect.body))
            startOwners.elements.append(effect.owner)
            startLeases.elements.append(effect.leaseExpiresAt?.journalMilliseconds)
            startAttempts.elements.append(Int64(effect.attempts))
        }
    }

    /// `records` in order of id, one an id: the last of two with one id wins, as in memory.
    static func lastByID<Record>(_ records: [Record], _ id: (Record) -> String) -> [Record] {
        var byID: [String: Record] = [:]
        for record in records { byID[id(record)] = record }
        return byID.sorted { $0.key < $1.key }.map(\.value)
    }

    /// The bindings of the call, in the parameters' order.
    func bindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: PostgresMachineCommitParameter.allCases.count)
        for parameter in PostgresMachineCommitParameter.allCases {
            switch parameter {
            case .machines: try bindings.append(machines)
            case .keys: try bindings.append(keys)
            case .expected: try bindings.append(expected)
            case .versions: try bindings.append(versions)
            case .events: try bindings.append(events)
            case .ats: try bindings.append(ats)
            case .snapshots: try bindings.append(snapshots)
            case .bodies: try bindings.append(bodies)
            case .stateCommits: try bindings.append(stateCommits)
            case .stateNames: try bindings.append(stateNames)
            case .stateAts: try bindings.append(stateAts)
            case .disarmCommits: try bindings.append(disarmCommits)
            case .disarmIDs: try bindings.append(disarmIDs)
            case .armCommits: try bindings.append(armCommits)
            case .armIDs: try bindings.append(armIDs)
            case .armDues: try bindings.append(armDues)
            case .armBodies: try bindings.append(armBodies)
            case .stopCommits: try bindings.append(stopCommits)
            case .stopIDs: try bindings.append(stopIDs)
            case .startCommits: try bindings.append(startCommits)
            case .startIDs: try bindings.append(startIDs)
            case .startBodies: try bindings.append(startBodies)
            case .startOwners: try bindings.append(startOwners)
            case .startLeases: try bindings.append(startLeases)
            case .startAttempts: try bindings.append(startAttempts)
            }
        }
        return bindings
    }
}
