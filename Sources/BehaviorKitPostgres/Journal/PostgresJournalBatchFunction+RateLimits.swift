// Rate limits in the batch function (v9): a claim from a queue reads the queue's limits (one
// row each for the queue and its partitions, in `<table>_rate_limits`); under the queue's
// limit it takes the queue's advisory lock (the one a concurrency limit takes) and reads the
// bucket (`<table>_rate_buckets`, partition ''); under the partitions' limit, each partition's
// bucket is read and debited under the partition's advisory lock, which the claim takes for
// it. The arithmetic is `QueueRateBucket`'s: a start costs the interval in milliseconds, each
// millisecond adds the starts per interval, the bucket holds `1 + burst` starts, and a bucket
// never written is full; `v_wait` is when the next start a limit held back is due, `v_held`
// whether the queue's own bucket held back due records (answered as `o_aux` 'rate' of the claim's
// `next` row).

extension PostgresJournalBatchFunction {
    /// The credit now of a bucket that held `v_b_credit` at `v_b_at` (NULL: full), refilling
    /// `n` a millisecond up to `cap` (SQL names).
    static func refilled(_ n: String, _ cap: String) -> String {
        """
        CASE WHEN v_b_credit IS NULL THEN \(cap) ELSE LEAST(\(cap), GREATEST(0, v_b_credit)
            + LEAST(GREATEST(0, v_now - v_b_at), (\(cap) + \(n) - 1) / \(n)) * \(n)) END
        """
    }

    /// When `credit` allows a start, as a time: now, or the milliseconds to refill a start's `cost`.
    static func nextStart(_ credit: String, _ cost: String, _ n: String) -> String {
        "v_now + (\(cost) - GREATEST(0, \(credit)) + \(n) - 1) / \(n)"
    }

    /// The queue's limits: `v_rq_*` for the queue's own, `v_rp_*` for each partition's (NULL
    /// when none), in one read.
    static func readRateLimits(_ table: String) -> String {
        """
        v_rq_n := NULL; v_rp_n := NULL; v_wait := NULL; v_held := false;
        IF v_queue IS NOT NULL THEN
            SELECT max(l.starts) FILTER (WHERE l.scope = 'queue'), max(l.interval_ms) FILTER (WHERE l.scope = 'queue'),
                max((1 + l.burst) * l.interval_ms) FILTER (WHERE l.scope = 'queue'),
                max(l.starts) FILTER (WHERE l.scope = 'partition'), max(l.interval_ms) FILTER (WHERE l.scope = 'partition'),
                max((1 + l.burst) * l.interval_ms) FILTER (WHERE l.scope = 'partition')
            INTO v_rq_n, v_rq_i, v_rq_cap, v_rp_n, v_rp_i, v_rp_cap
            FROM "\(PostgresJournalManagementSQL.rateLimitsTable(table))" AS l WHERE l.queue = v_queue;
        END IF;
        """
    }

    /// Under the queue's limit (its advisory lock held): `v_room` cut to the starts its bucket allows.
    static func queueRateRoom(_ table: String) -> String {
        """
        IF v_rq_n IS NOT NULL THEN
            SELECT b.credit, b.written_at INTO v_b_credit, v_b_at
            FROM "\(PostgresJournalManagementSQL.rateBucketsTable(table))" AS b
            WHERE b.queue = v_queue AND b.scope = 'queue' AND b.partition_key = '';
            v_rq_credit := \(refilled("v_rq_n", "v_rq_cap"));
            v_room := LEAST(v_room, v_rq_credit / v_rq_i);
        END IF;
        """
    }

    /// Under the queue's limit, after the claim: the bucket debited for the `v_taken` starts,
    /// and `v_wait` set when due records are left and the bucket allows no start.
    static func queueRateDebit(_ t: String, _ table: String, _ queue: String) -> String {
        """
        IF v_rq_n IS NOT NULL THEN
            IF v_taken > 0 THEN
                v_rq_credit := v_rq_credit - v_taken * v_rq_i;
                \(writeBucket(table, "'queue'", "''", "v_rq_credit"))
            END IF;
            IF v_rq_credit < v_rq_i AND EXISTS (
                SELECT 1 FROM \(t) AS t WHERE \(pendingRoot) AND \(queue) AND t.lease_expires_at <= v_now) THEN
                v_wait := LEAST(v_wait, \(nextStart("v_rq_credit", "v_rq_i", "v_rq_n")));
                v_held := true;
            END IF;
        END IF;
        """
    }

    /// Under the partitions' limit, in the partitioned claim's loop (the partition's advisory lock
    /// held): skips the record when its partition's bucket allows no start, debits it otherwise.
    static func partitionRateDebit(_ table: String) -> String {
        """
        IF v_rp_n IS NOT NULL THEN
            SELECT b.credit, b.written_at INTO v_b_credit, v_b_at
            FROM "\(PostgresJournalManagementSQL.rateBucketsTable(table))" AS b
            WHERE b.queue = v_queue AND b.scope = 'partition' AND b.partition_key = v_rec.c_partition;
            v_rp_credit := \(refilled("v_rp_n", "v_rp_cap"));
            IF v_rp_credit < v_rp_i THEN
                v_wait := LEAST(v_wait, \(nextStart("v_rp_credit", "v_rp_i", "v_rp_n")));
                v_full := v_full || v_rec.c_partition;
                CONTINUE;
            END IF;
            \(writeBucket(table, "'partition'", "v_rec.c_partition", "v_rp_credit - v_rp_i"))
        END IF;
        """
    }

    /// Writes the bucket of the queue, `scope` and `partition` (SQL expressions) with `credit`, now.
    static func writeBucket(_ table: String, _ scope: String, _ partition: String, _ credit: String) -> String {
        """
        INSERT INTO "\(PostgresJournalManagementSQL.rateBucketsTable(table))" AS b
            (queue, scope, partition_key, credit, written_at)
        VALUES (v_queue, \(scope), \(partition), \(credit), v_now)
        ON CONFLICT (queue, scope, partition_key) DO UPDATE SET credit = excluded.credit, written_at = excluded.written_at;
        """
    }
}
