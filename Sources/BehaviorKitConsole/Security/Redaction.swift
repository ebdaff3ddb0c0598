/// Hides secrets in text the console shows or logs: the strings it was told of, and the
/// password of any `scheme://user:password@host` URL.
struct Redaction: Sendable {
    let secrets: [String]

    init(secrets: [String]) {
        self.secrets = secrets.filter { !$0.isEmpty }.sorted { $0.count > $1.count }
    }

    /// `text` with every secret replaced by `***`, and URLs' credentials hidden.
    func apply(_ text: String) -> String {
        var result = Redaction.hidingCredentials(text)
        for secret in secrets { result = result.replacing(secret, with: "***") }
        return result
    }

    /// `text` with the `user:password@` part of each `scheme://` URL written `user:***@`.
    static func hidingCredentials(_ text: String) -> String {
        var result = ""
        var rest = Substring(text)
        while let scheme = rest.firstRange(of: "://") {
            result += rest[..<scheme.upperBound]
            rest = rest[scheme.upperBound...]
            let authorityEnd = rest.firstIndex { $0 == "/" || $0 == " " || $0 == "\n" || $0 == "?" } ?? rest.endIndex
            let authority = rest[..<authorityEnd]
            if let at = authority.lastIndex(of: "@") {
                let credentials = authority[..<at]
                if let colon = credentials.firstIndex(of: ":") {
                    result += credentials[..<colon] + ":***"
                } else {
                    result += credentials
                }
                rest = rest[at...]
            }
        }
        return result + rest
    }
}

extension JournalConsole {
    /// `text` as the console shows or logs it: each of `secrets` replaced by `***`, and the
    /// password of every `scheme://user:password@host` URL too. `behaviorkit console` prints
    /// its journal's location and its errors through it.
    public static func redacted(_ text: String, secrets: [String] = []) -> String {
        Redaction(secrets: secrets).apply(text)
    }
}
