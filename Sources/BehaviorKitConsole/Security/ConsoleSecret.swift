/// A random token: the console's CSRF token (every action form carries it, every action checks
/// it), and the standalone server's access token.
enum ConsoleSecret {
    /// 32 random bytes from the system's secure generator, as 64 hexadecimal digits.
    static func random() -> String {
        var generator = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdef")
        return String((0..<64).map { _ in digits[Int(generator.next() % 16)] })
    }

    /// Whether `given` equals `expected`, in time that does not depend on where they differ.
    static func matches(_ given: String?, _ expected: String) -> Bool {
        guard let given else { return false }
        let (left, right) = (Array(given.utf8), Array(expected.utf8))
        guard left.count == right.count else { return false }
        var difference: UInt8 = 0
        for (a, b) in zip(left, right) { difference |= a ^ b }
        return difference == 0
    }
}
