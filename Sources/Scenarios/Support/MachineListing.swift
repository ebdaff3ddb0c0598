public import DurableMachines
import Foundation

/// What `behaviorkit machines` prints: a durable machine's instances by state, the keys in one
/// state, or one key's history, read from the store alone (no definition needed).
public enum MachineListing {
    /// How to print.
    public enum Format: Sendable { case text, json }

    /// Opens the store at `location`, prints, and closes it.
    public static func run(
        location: String, machine: String, state: String?, key: String?, limit: Int, format: Format,
        console: Console
    ) async throws {
        let store = try await MachineStoreLocation.open(location)
        do {
            try await run(
                store, machine: machine, state: state, key: key, limit: limit, format: format, console: console)
        } catch {
            try? await store.close()
            throw error
        }
        try await store.close()
    }

    /// Counts by state, the keys in `state`, or the history of `key`.
    public static func run(
        _ store: any MachineStore, machine: String, state: String?, key: String?, limit: Int, format: Format,
        console: Console
    ) async throws {
        if let key {
            try await history(
                store, MachineKey(machine: machine, key: key), limit: limit, format: format, console: console)
        } else if let state {
            let entries = try await store.keys(
                machine: machine, in: state, enteredBefore: nil, after: nil, limit: limit)
            if format == .json {
                console.print(
                    try json(entries.map { ["key": $0.key, "state": $0.state, "enteredAt": stamp($0.enteredAt)] }))
                return
            }
            for entry in entries { console.print("\(entry.key)  entered \(stamp(entry.enteredAt))") }
            console.print("\(entries.count) instance\(entries.count == 1 ? "" : "s") of '\(machine)' in \(state)")
        } else {
            let counts = try await store.countsByState(machine: machine)
            if format == .json {
                console.print(try json(counts))
                return
            }
            let width = max(5, counts.keys.map(\.count).max() ?? 0)
            console.print("state".padding(toLength: width, withPad: " ", startingAt: 0) + "  instances")
            for (state, count) in counts.sorted(by: { $0.key < $1.key }) {
                console.print(state.padding(toLength: width, withPad: " ", startingAt: 0) + "  \(count)")
            }
            if counts.isEmpty { console.print("(no instance of '\(machine)')") }
        }
    }

    private static func history(
        _ store: any MachineStore, _ key: MachineKey, limit: Int, format: Format, console: Console
    ) async throws {
        guard let instance = try await store.instance(key) else {
            throw MachineStoreLocationError(
                description: "durable machine '\(key.machine)' has no instance '\(key.key)'")
        }
        let steps = try await store.history(key, after: 0, limit: limit)
        let rows: [[String: Any]] = steps.map { step in
            let body = (try? JSONSerialization.jsonObject(with: Data(step.body))) as? [String: Any] ?? [:]
            var row: [String: Any] = ["sequence": step.sequence, "at": stamp(step.at)]
            row["eventID"] = step.eventID
            row["trigger"] = body["trigger"]
            row["configuration"] = body["configuration"]
            return row
        }
        if format == .json {
            console.print(
                try json(
                    [
                        "key": key.key, "machine": key.machine, "version": instance.version,
                        "states": instance.states.map(\.state), "history": rows,
                    ] as [String: Any]))
            return
        }
        console.print(
            "\(key): version \(instance.version), in \(instance.states.map(\.state).joined(separator: ", "))")
        for row in rows {
            let trigger = describe(row["trigger"])
            let configuration = (row["configuration"] as? [Any]).map { $0.map { describe($0) }.joined(separator: ", ") }
            let id = (row["eventID"] as? String).map { "  [\($0)]" } ?? ""
            console.print("  \(row["sequence"] ?? "")  \(row["at"] ?? "")  \(trigger) → \(configuration ?? "?")\(id)")
        }
    }

    /// A stored value as a person reads it: `start`, `event pay`, `timer {…}`.
    static func describe(_ value: Any?) -> String {
        switch value {
        case let text as String: return text
        case let number as NSNumber: return "\(number)"
        case let object as [String: Any]:
            if object.count == 1, let (name, payload) = object.first, let fields = payload as? [String: Any] {
                let parts = fields.sorted { $0.key < $1.key }.map { describe($0.value) }
                return parts.isEmpty ? name : "\(name) \(parts.joined(separator: " "))"
            }
            return "{"
                + object.sorted { $0.key < $1.key }.map { "\($0.key): \(describe($0.value))" }
                .joined(separator: ", ") + "}"
        case let array as [Any]: return "[" + array.map { describe($0) }.joined(separator: ", ") + "]"
        default: return value.map { "\($0)" } ?? "null"
        }
    }

    private static func stamp(_ date: Date) -> String {
        date.formatted(.iso8601)
    }

    private static func json(_ value: Any) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys]), as: UTF8.self)
    }
}
