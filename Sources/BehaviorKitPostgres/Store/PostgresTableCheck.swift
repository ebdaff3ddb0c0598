/// What keeps a table found in the database from being one the store expects: its kind, the
/// columns it lacks (less those opening adds), columns of another type, and columns it has beside
/// the store's. Those are a later release's (each added with a default, so that this release's
/// writes fill them) when every column of the store's is there: then they are no problem, so that
/// processes of this release share the table with newer ones during a rolling deploy or after a
/// rollback; beside another problem they are named, as a table that is not the store's has them.
enum PostgresTableCheck {
    static func problems(
        kind: String, columns found: [String: String], expected: [(name: String, type: String)],
        addable: Set<String> = []
    ) -> [String] {
        guard kind == "r" || kind == "p" else { return ["it is not a table (relkind '\(kind)')"] }
        let known = Set(expected.map(\.name))
        let missing = expected.map(\.name).filter { found[$0] == nil && !addable.contains($0) }
        let unexpected = found.keys.filter { !known.contains($0) }.sorted()
        let retyped = expected.compactMap { column -> String? in
            guard let type = found[column.name], type != column.type else { return nil }
            return "\(column.name) is \(type), not \(column.type)"
        }
        // A later release's columns, unless the table is not the store's for another reason.
        let foreign = !missing.isEmpty || !retyped.isEmpty
        var problems: [String] = []
        if !missing.isEmpty { problems.append("missing columns: \(missing.joined(separator: ", "))") }
        if foreign, !unexpected.isEmpty { problems.append("unexpected columns: \(unexpected.joined(separator: ", "))") }
        return problems + retyped
    }
}
