import ArgumentParser
import Scenarios

/// Prints `error: <message>` on standard error (lost, never a crash, when standard error is
/// full or closed) and returns the exit code 1, for the caller to throw.
func failure(_ message: String) -> ExitCode {
    StandardStream.error.writeLine("error: \(message)")
    return .failure
}

/// Runs `body`; an error it throws, other than an exit code, is printed as `error: <error>` and
/// becomes the exit code 1.
func exitingOnError(_ body: () async throws -> Void) async throws {
    do {
        try await body()
    } catch let exit as ExitCode {
        throw exit
    } catch {
        throw failure("\(error)")
    }
}
