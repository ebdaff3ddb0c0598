import ArgumentParser
import Scenarios

/// Prints `error: <message>` on standard error (lost, never a crash, when standard error is
/// full or closed) and returns the exit code 1, for the caller to throw.
func failure(_ message: String) -> ExitCode {
    StandardStream.error.writeLine("error: \(message)")
    return .failure
}
