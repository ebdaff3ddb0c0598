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
