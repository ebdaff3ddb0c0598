import Benchmark

// The Commands benchmarks land with the Commands module.
let benchmarks: @Sendable () -> Void = {}
