// Settlements in the batch function, set-based (v11): the settlements next to each other in a
// batch (a drain's, one per record its slots ran) are settled in one statement, then each one that
// statement did not settle goes through the settlement's own branch, in the batch's order.

extension PostgresJournalBatchFunction {
    /// Settles at once, when `v_i` is the first of a run of settlements (`v_i` to `v_run`), every
    /// root of the run that its writer holds (owner, and attempt when the write names one), as
    /// the settlement's branch would one by one, and answers them `settled`; then moves past
    /// `v_i` when it was one of them (`v_done`, in order, from `v_d`).
    ///
    /// What this statement leaves to the branch, in order: a key written twice in the run after its
    /// first (which the branch then finds settled, or another's); a child; a root a child in the run
    /// names (a child settled before its root, or refused after it, as one by one); a key unknown,
    /// settled already, or another's (answered as before, `same` or `lost` with its owner).
    ///
    /// The test of a pending root is written `(…) IS TRUE` so that the planner cannot match it to
    /// the partial indexes of open roots (`open_due`, `open_priority`): it then finds the run's
    /// records by their keys. Written plainly, the function's generic plan walked every open root
    /// of the queue for each run (75 ms a run of 16 in a queue of 10,000, where by key it is 0.4 ms).
    static func settleRun(_ t: String) -> String {
        """
        IF v_i > v_run THEN
            v_run := v_i;
            WHILE v_run < v_writes AND p_ops[v_run + 1] = v_what LOOP
                v_run := v_run + 1;
            END LOOP;
            WITH s AS (
                SELECT DISTINCT ON (s.key) s.* FROM unnest(p_keys[v_i:v_run], p_statuses[v_i:v_run],
                    p_owners[v_i:v_run], p_tokens[v_i:v_run], p_outputs[v_i:v_run], p_reasons[v_i:v_run])
                    WITH ORDINALITY AS s(key, status, owner, token, output, reason, n)
                ORDER BY s.key, s.n
            ), u AS (
                \(settling(t, status: "s.status", output: "s.output", reason: "s.reason"))
                FROM s
                WHERE t.key = s.key AND (t.parent_key IS NULL AND t.status = 'pending') IS TRUE AND t.owner = s.owner
                    AND (s.token IS NULL OR t.attempts = s.token)
                    AND NOT EXISTS (SELECT 1 FROM \(t) AS c WHERE c.parent_key = t.key AND c.key = ANY(p_keys[v_i:v_run]))
                RETURNING s.n
            )
            SELECT COALESCE(array_agg(v_i - 1 + u.n ORDER BY u.n), '{}') INTO v_done FROM u;
            v_d := 1;
            r := NULL;
            RETURN QUERY SELECT d.n, \(PostgresJournalOutcome.settled.literal)::text, v_now, NULL::text, NULL::text,
                NULL::bigint, \(recordColumns) FROM unnest(v_done) AS d(n);
        END IF;
        IF v_d <= cardinality(v_done) AND v_done[v_d] = v_i THEN
            v_d := v_d + 1;
            CONTINUE;
        END IF;
        """
    }
}
