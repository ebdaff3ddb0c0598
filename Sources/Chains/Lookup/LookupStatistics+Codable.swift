import BehaviorKitSync

extension LookupTierStatistics: Codable {
    /// The keys of the encoded form: the properties' names, latencies in whole nanoseconds.
    enum CodingKeys: String, CodingKey {
        case name, hits, misses, errors, skipped, writes, writeErrors, lastWriteError, timedReads
        case totalLatencyNanoseconds, maxLatencyNanoseconds, isCircuitOpen
    }

    /// Reads the form ``encode(to:)`` writes.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(name: try container.decode(String.self, forKey: .name))
        hits = try container.decode(Int.self, forKey: .hits)
        misses = try container.decode(Int.self, forKey: .misses)
        errors = try container.decode(Int.self, forKey: .errors)
        skipped = try container.decode(Int.self, forKey: .skipped)
        writes = try container.decode(Int.self, forKey: .writes)
        writeErrors = try container.decode(Int.self, forKey: .writeErrors)
        lastWriteError = try container.decodeIfPresent(String.self, forKey: .lastWriteError)
        timedReads = try container.decode(Int.self, forKey: .timedReads)
        totalLatency = .nanoseconds(try container.decode(Int64.self, forKey: .totalLatencyNanoseconds))
        maxLatency = .nanoseconds(try container.decode(Int64.self, forKey: .maxLatencyNanoseconds))
        isCircuitOpen = try container.decode(Bool.self, forKey: .isCircuitOpen)
    }

    /// Writes every counter under its property's name, and the latencies in whole nanoseconds
    /// (`totalLatencyNanoseconds`, `maxLatencyNanoseconds`), so that a service can answer its
    /// statistics as JSON.
    ///
    /// ```swift
    /// try JSONEncoder().encode(movies.statistics.tiers[0])
    /// // {"name":"memory","hits":90,"misses":10,…,"totalLatencyNanoseconds":41000,…}
    /// ```
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(hits, forKey: .hits)
        try container.encode(misses, forKey: .misses)
        try container.encode(errors, forKey: .errors)
        try container.encode(skipped, forKey: .skipped)
        try container.encode(writes, forKey: .writes)
        try container.encode(writeErrors, forKey: .writeErrors)
        try container.encodeIfPresent(lastWriteError, forKey: .lastWriteError)
        try container.encode(timedReads, forKey: .timedReads)
        try container.encode(totalLatency.wholeNanoseconds, forKey: .totalLatencyNanoseconds)
        try container.encode(maxLatency.wholeNanoseconds, forKey: .maxLatencyNanoseconds)
        try container.encode(isCircuitOpen, forKey: .isCircuitOpen)
    }
}
