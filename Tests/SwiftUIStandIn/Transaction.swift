/// Stands in for SwiftUI's `Transaction` (SwiftUI does not exist on Linux): a public type of that
/// name in another module, imported beside BehaviorKit.
public struct Transaction: Sendable {
    /// As SwiftUI's: whether animations are off.
    public var disablesAnimations = false

    /// An empty transaction.
    public init() {}
}
