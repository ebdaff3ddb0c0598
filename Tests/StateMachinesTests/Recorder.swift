import BehaviorKitSync

/// A thread-safe list for observers and effects to write into.
final class Recorder<Value: Sendable>: Sendable {
    private let storage = LockedValue<[Value]>([])

    func append(_ value: Value) { storage.withLock { $0.append(value) } }

    var values: [Value] { storage.withLock { $0 } }
}
