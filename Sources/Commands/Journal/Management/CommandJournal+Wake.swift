extension CommandJournal {
    /// Changes nothing and answers `false`: the record is taken when it falls due. A journal
    /// that can make a waiting record due early implements it.
    public func wake(_ key: String) async throws -> Bool { false }
}
