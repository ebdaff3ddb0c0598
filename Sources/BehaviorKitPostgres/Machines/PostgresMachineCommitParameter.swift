/// The machine commit function's parameters (v2), in the order it takes them: the one place
/// their layout is written. The function's signature, the call's placeholders and the order of
/// the bindings (``PostgresMachineCommitArguments``) are all made from it.
///
/// Each commit of a batch is one element of every `commits` array, at its position (from 1);
/// its lists (active states, timers, effects) are elements of their own parallel arrays, each
/// with the position of the commit it belongs to, in the commits' order.
enum PostgresMachineCommitParameter: String, CaseIterable, Sendable {
    case machines, keys, expected, versions, events, ats, snapshots, bodies
    case stateCommits = "state_commits"
    case stateNames = "state_names"
    case stateAts = "state_ats"
    case disarmCommits = "disarm_commits"
    case disarmIDs = "disarm_ids"
    case armCommits = "arm_commits"
    case armIDs = "arm_ids"
    case armDues = "arm_dues"
    case armBodies = "arm_bodies"
    case stopCommits = "stop_commits"
    case stopIDs = "stop_ids"
    case startCommits = "start_commits"
    case startIDs = "start_ids"
    case startBodies = "start_bodies"
    case startOwners = "start_owners"
    case startLeases = "start_leases"
    case startAttempts = "start_attempts"

    /// The parameter's name in the function.
    var name: String { "p_" + rawValue }

    /// Its type, as `format_type` spells it.
    var type: String {
        switch self {
        case .machines, .keys, .events, .stateNames, .disarmIDs, .armIDs, .stopIDs, .startIDs, .startOwners:
            "text[]"
        case .snapshots, .bodies, .armBodies, .startBodies: "bytea[]"
        case .expected, .versions, .ats, .stateCommits, .stateAts, .disarmCommits, .armCommits, .armDues,
            .stopCommits, .startCommits, .startLeases, .startAttempts:
            "bigint[]"
        }
    }

    /// The function's parameter list: each name with its type.
    static let declarations = allCases.map { "\($0.name) \($0.type)" }.joined(separator: ", ")

    /// The function's argument types, as `to_regprocedure` reads them.
    static let signature = allCases.map(\.type).joined(separator: ", ")

    /// The call's placeholders, each cast to its parameter's type.
    static let placeholders = allCases.enumerated().map { "$\($0.offset + 1)::\($0.element.type)" }.joined(
        separator: ", ")
}
