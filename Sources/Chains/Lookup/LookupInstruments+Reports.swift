import Logging
import Metrics

extension LookupInstruments {
    /// A read of tier `index` that answered (`found` or not) after `latency`.
    func tierAnswered(_ index: Int, found: Bool, latency: Duration, key: some Sendable) {
        if let tier = metrics?.tiers[index] {
            (found ? tier.hits : tier.misses).increment()
            tier.duration.record(duration: latency)
        }
        logger?.trace(
            found ? "tier hit" : "tier miss", metadata: ["tier": "\(tierNames[index])", "key": "\(key)"])
    }

    /// A read of tier `index` that threw `error` after `latency`; `opened` when its circuit
    /// breaker opened on this failure, for `coolDown`.
    func tierFailed(_ index: Int, _ error: any Error, latency: Duration, key: some Sendable, opened coolDown: Duration?)
    {
        if let tier = metrics?.tiers[index] {
            tier.errors.increment()
            tier.duration.record(duration: latency)
        }
        guard let logger else { return }
        let metadata: Logger.Metadata = ["tier": "\(tierNames[index])", "key": "\(key)", "error": "\(error)"]
        logger.debug("tier failed; asking the next", metadata: metadata)
        if let coolDown {
            var opened = metadata
            opened["cool_down"] = "\(coolDown)"
            logger.warning("circuit opened: the source is skipped for its cool-down", metadata: opened)
        }
    }

    /// Tier `index` skipped: its circuit is open.
    func tierSkipped(_ index: Int) {
        metrics?.tiers[index].skipped.increment()
    }

    /// A write-back into (or an invalidation of) store `index` that threw `error`.
    func writeFailed(_ index: Int, _ error: any Error, key: some Sendable) {
        metrics?.tiers[index].writeErrors.increment()
        logger?.debug(
            "cache write failed; the lookup still answers",
            metadata: ["tier": "\(tierNames[index])", "key": "\(key)", "error": "\(error)"])
    }

    /// A lookup that reached the end of the chain: every source answered (not found), or one failed.
    func reachedEnd(sourcesFailed: Bool, key: some Sendable) {
        if let metrics { (sourcesFailed ? metrics.unavailable : metrics.notFound).increment() }
        logger?.debug(
            sourcesFailed ? "lookup unavailable: a source failed or was skipped" : "lookup found nothing",
            metadata: ["key": "\(key)"])
    }

    /// A lookup answered "not found" from the negative cache.
    func rememberedNotFound() { metrics?.rememberedNotFound.increment() }

    /// A lookup joined a load of its key under way.
    func coalesced() { metrics?.coalesced.increment() }

    /// A background reload started.
    func refreshStarted() { metrics?.refreshes.increment() }

    /// A background reload failed or was cancelled.
    func refreshFailed(key: some Sendable) {
        metrics?.failedRefreshes.increment()
        logger?.debug("background refresh failed; the value is due again at its next read", metadata: ["key": "\(key)"])
    }
}
