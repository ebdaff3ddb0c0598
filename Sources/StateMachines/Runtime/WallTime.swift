#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The calendar time, as a duration since 1970: what a runtime stamps its snapshots with, so
/// that a restore can tell how long the snapshot waited.
enum WallTime {
    /// Now, to the millisecond (as snapshots encode it).
    static var now: Duration {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return .seconds(Int64(time.tv_sec)) + .milliseconds(Int64(time.tv_nsec) / 1_000_000)
    }
}
