/// A `postgres://` location given to a `behaviorkit` built without the package's PostgreSQL trait
/// (the default, so that a fresh clone's first build stays small). The message says how to turn it
/// on; it never repeats the URL, which may hold a password.
public struct PostgreSQLTraitMissing: Error, CustomStringConvertible {
    /// Creates the error.
    public init() {}

    /// The error line: what is missing, and the command that builds it in.
    public var description: String {
        "this behaviorkit was built without PostgreSQL; build it with the PostgreSQL trait: "
            + "swift run --traits PostgreSQL behaviorkit … (or swift build --traits PostgreSQL)"
    }

    /// Whether this build of `behaviorkit` opens `postgres://` locations.
    public static var isBuiltIn: Bool {
        #if PostgreSQL
        true
        #else
        false
        #endif
    }
}
