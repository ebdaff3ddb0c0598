import BehaviorKitSync
package import Metrics

/// The metric objects of one component, made once per label and dimensions on the factory that
/// was current when the component was made, and kept: a counter is never made per operation.
///
/// A component holds one only when a metrics backend is bootstrapped (``make()`` answers `nil`
/// for swift-metrics' no-op factory), so that, without one, reporting costs a `nil` check.
package final class MetricCache: Sendable {
    private struct Key: Hashable {
        let label: String
        let values: [String]
    }

    private struct Objects {
        var counters: [Key: Counter] = [:]
        var timers: [Key: Metrics.Timer] = [:]
        var recorders: [Key: Recorder] = [:]
        var gauges: [Key: Gauge] = [:]
    }

    private let factory: any MetricsFactory
    private let objects = LockedValue(Objects())

    private init(factory: any MetricsFactory) {
        self.factory = factory
    }

    /// A cache on the current factory (the task-local one of `withMetricsFactory`, or the
    /// bootstrapped one), or `nil` when that is swift-metrics' no-op factory.
    package static func make() -> MetricCache? {
        let factory = MetricsSystem.factory
        return factory is NOOPMetricsHandler ? nil : MetricCache(factory: factory)
    }

    /// The counter `label` with `dimensions`.
    package func counter(_ label: String, _ dimensions: [(String, String)]) -> Counter {
        let key = Key(label: label, values: dimensions.map(\.1))
        if let counter = objects.withLock({ $0.counters[key] }) { return counter }
        let counter = Counter(label: label, dimensions: dimensions, factory: factory)
        return objects.withLock { $0.counters[key, default: counter] }
    }

    /// The timer `label` with `dimensions`.
    package func timer(_ label: String, _ dimensions: [(String, String)]) -> Metrics.Timer {
        let key = Key(label: label, values: dimensions.map(\.1))
        if let timer = objects.withLock({ $0.timers[key] }) { return timer }
        let timer = Metrics.Timer(label: label, dimensions: dimensions, factory: factory)
        return objects.withLock { $0.timers[key, default: timer] }
    }

    /// The aggregating recorder (a histogram) `label` with `dimensions`.
    package func recorder(_ label: String, _ dimensions: [(String, String)]) -> Recorder {
        let key = Key(label: label, values: dimensions.map(\.1))
        if let recorder = objects.withLock({ $0.recorders[key] }) { return recorder }
        let recorder = Recorder(label: label, dimensions: dimensions, aggregate: true, factory: factory)
        return objects.withLock { $0.recorders[key, default: recorder] }
    }

    /// Adds `amount` to the counter `label` with `dimensions`.
    package func increment(_ label: String, _ dimensions: [(String, String)], by amount: Int = 1) {
        counter(label, dimensions).increment(by: amount)
    }

    /// Records `duration` in the timer `label` with `dimensions`.
    package func record(_ label: String, _ dimensions: [(String, String)], _ duration: Duration) {
        timer(label, dimensions).record(duration: duration)
    }

    /// The gauge `label` with `dimensions`.
    package func gauge(_ label: String, _ dimensions: [(String, String)]) -> Gauge {
        let key = Key(label: label, values: dimensions.map(\.1))
        if let gauge = objects.withLock({ $0.gauges[key] }) { return gauge }
        let gauge = Gauge(label: label, dimensions: dimensions, factory: factory)
        return objects.withLock { $0.gauges[key, default: gauge] }
    }
}
