extension Fleet {
    /// Starts a task that runs `body` for every number below `count`, 16 at a time: number n
    /// in lane n % 16, each lane in order. The drivers of the order and workflow fleets start their orders so.
    static func inLanes(
        _ count: Int, _ body: @escaping @Sendable (_ number: Int) async throws -> Void
    ) -> Task<Void, any Error> {
        Task {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for lane in 0..<16 {
                    group.addTask {
                        for number in stride(from: lane, to: count, by: 16) { try await body(number) }
                    }
                }
                try await group.waitForAll()
            }
        }
    }
}
