import Foundation
import Testing

/// Several processes writing to one `DiskCache` file at once: each runs the hidden
/// `behaviorkit disk-cache-worker`, which opens two instances on the file.
struct DiskCacheProcessesTests {
    @Test func fourProcessesWithTwoInstancesEachKeepEveryOneOf400ConcurrentWrites() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("disk-cache-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("shared.sqlite").path

        var workers: [(process: Process, output: Pipe, error: Pipe)] = []
        for worker in 0..<4 {
            let process = Process()
            process.executableURL = try CLIRunner.executable
            process.arguments = [
                "disk-cache-worker", "--path", path, "--first", "\(worker * 100)", "--count", "100", "--instances", "2",
            ]
            let (output, error) = (Pipe(), Pipe())
            process.standardOutput = output
            process.standardError = error
            try process.run()
            workers.append((process, output, error))
        }
        for (index, worker) in workers.enumerated() {
            let output = String(decoding: worker.output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let error = String(decoding: worker.error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            worker.process.waitUntilExit()
            #expect(worker.process.terminationStatus == 0, "worker \(index): \(error)")
            #expect(output.hasPrefix("stored 100 of 100;"), "worker \(index): \(output)")
        }
        let check = try CLIRunner.run(["disk-cache-worker", "--path", path, "--count", "0"])
        #expect(check.standardOutput == "stored 0 of 0; the file holds 400 entries\n")
    }
}
