/// A movie, as the article's `MovieItem`.
public struct MovieItem: Codable, Hashable, Sendable {
    /// The movie's id.
    public let movieID: Int
    /// Its title.
    public let title: String
    /// A line about it.
    public let synopsis: String
    /// The year it came out.
    public let year: Int

    /// Creates a movie.
    public init(movieID: Int, title: String, synopsis: String, year: Int) {
        self.movieID = movieID
        self.title = title
        self.synopsis = synopsis
        self.year = year
    }
}

/// The movies the endpoints know: ids `0..<size`, each made up from its id, the same on every
/// run.
public struct MovieCatalog: Sendable {
    /// How many movies there are; ids from 0.
    public let size: Int

    /// The article asks for ids 0…10000: the last one is not in the catalog.
    public static let article = MovieCatalog(size: 10_000)

    /// A catalog of the movies `0..<size`.
    public init(size: Int) {
        self.size = size
    }

    private static let adjectives = [
        "Silent", "Last", "Crimson", "Hidden", "Endless", "Broken", "Golden", "Distant", "Frozen", "Electric",
    ]
    private static let nouns = [
        "Harbor", "Signal", "Garden", "Frontier", "Orbit", "Mirror", "Road", "Empire", "Tide", "Circuit",
    ]
    private static let plots = [
        "a courier who cannot forget", "two rivals stranded together", "a town that keeps a secret",
        "a crew far from home", "an inventor and a stolen idea",
    ]

    /// The movie with `id`, or `nil` outside the catalog.
    public func movie(_ id: Int) -> MovieItem? {
        guard id >= 0 && id < size else { return nil }
        let adjective = Self.adjectives[id % Self.adjectives.count]
        let noun = Self.nouns[(id / Self.adjectives.count) % Self.nouns.count]
        let part = id / (Self.adjectives.count * Self.nouns.count)
        return MovieItem(
            movieID: id, title: "The \(adjective) \(noun)" + (part > 0 ? " \(part + 1)" : ""),
            synopsis: "The story of \(Self.plots[id % Self.plots.count]).", year: 1950 + (id * 7) % 75)
    }
}
