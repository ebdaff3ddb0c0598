import Benchmark

// The Chains benchmarks land with the Chains module.
let benchmarks: @Sendable () -> Void = {}
