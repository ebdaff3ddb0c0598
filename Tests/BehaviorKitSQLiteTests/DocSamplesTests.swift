import BehaviorKitSQLite
import Chains
import Testing

/// The `DiskCache` sample of the Chains guide (`GettingStarted.md`, "Add a disk tier"), as written
/// there but for the file's folder: it must compile and do what the guide says.
struct DiskCacheDocSamplesTests {
    struct Movie: Codable, Hashable, Sendable {
        let id: Int
        let title: String
    }

    @Test func aDiskTierBetweenTheMemoryAndTheCatalog() async throws {
        let folder = try TemporaryFolder()
        let disk = try DiskCache<Int, Movie>(
            path: folder.path("movies.sqlite"), sizeLimit: 10 << 20, ifUnreadable: .rebuild)
        let memory = MemoryCache<Int, Movie>(countLimit: 500)
        let durable = TieredLookup<Int, Movie>([
            memory,
            disk,
            LookupSource(name: "catalog") { id in id == 42 ? Movie(id: 42, title: "Blade Runner") : nil },
        ])
        #expect(try await durable.answer(for: 42).tier == "catalog")
        #expect(try await disk.lookup(42)?.title == "Blade Runner")
        #expect(memory.value(forKey: 42)?.title == "Blade Runner")
        #expect(try await durable.answer(for: 42).tier == "memory")
    }
}

/// The `DiskCache` sample of `CachePolicies.md`, but for the file's folder.
struct DiskCachePoliciesDocSamplesTests {
    @Test func shareADiskCacheAndLetItExpire() async throws {
        let folder = try TemporaryFolder()
        let disk = try DiskCache<Int, Movie>(
            path: folder.path("Caches/movies.sqlite"), timeToLive: .seconds(86_400), busyTimeout: .seconds(5),
            creatingFolder: true)
        try await disk.store(Movie(id: 1, title: "Alien"), for: 1)
        #expect(try await disk.lookup(1)?.title == "Alien")
        #expect(disk.timeToLive == .seconds(86_400))
    }
}
