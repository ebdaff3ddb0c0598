// Several settlements in the batch function as one block, all or none: a refusal raises BKJ01
// (the outcome in its message, the key and the owner in its detail and hint), which rolls the
// block back to its start and becomes that write's answer.

extension PostgresJournalBatchFunction {
    /// Ends the `changes` block with `outcome` for `key` and `owner` (SQL expressions).
    static func refuse(_ outcome: PostgresJournalOutcome, _ key: String, _ owner: String) -> String {
        "RAISE EXCEPTION USING ERRCODE = 'BKJ01', MESSAGE = \(outcome.literal), DETAIL = \(key), "
            + "HINT = COALESCE(\(owner), '');"
    }

    /// The `changes` write on table `t`: writes each missing child, settles each record, all or none.
    /// Its changes are the elements of the `p_change_` arrays from `v_change` on that name its
    /// position; `v_change` is moved past them first, so that a refusal leaves it there too.
    ///
    /// A missing child is inserted settled (v12), as its settlement would leave it a moment later
    /// (its root held, its output, and its reason unless done): one row version, where a pending
    /// one then its settlement wrote two, each an entry in every index of the table.
    static func changes(_ t: String) -> String {
        """
        v_first := v_change;
        WHILE v_change <= v_changes AND p_change_writes[v_change] = v_i LOOP
            v_change := v_change + 1;
        END LOOP;
        BEGIN
            FOR v_j IN v_first .. v_change - 1 LOOP
                v_key := p_change_keys[v_j];
                v_status := p_change_statuses[v_j];
                v_kind := p_change_kinds[v_j];
                IF v_kind IS NOT NULL THEN
                    v_parent := p_change_parents[v_j];
                    v_payload := COALESCE(p_change_payloads[v_j], ''::bytea);
                    SELECT * INTO r FROM \(t) AS t WHERE t.key = v_key;
                    IF FOUND THEN
                        IF r.kind IS DISTINCT FROM v_kind OR r.payload IS DISTINCT FROM v_payload
                            OR r.parent_key IS DISTINCT FROM v_parent THEN
                            \(refuse(.conflict, "v_key", "NULL"))
                        END IF;
                    ELSE
                        IF v_parent IS NULL THEN
                            \(refuse(.unknown, "v_key", "NULL"))
                        END IF;
                        \(holds(t, "v_parent", otherwise: refuse(.lost, "v_parent", "v_root_owner")))
                        INSERT INTO \(t) AS t (key, kind, payload, parent_key, status, attempts, created_at,
                            updated_at, output, failure_reason)
                        VALUES (v_key, v_kind, v_payload, v_parent, v_status, 0, v_now, v_now, p_change_outputs[v_j],
                            CASE WHEN v_status = 'done' THEN NULL ELSE p_change_reasons[v_j] END);
                        CONTINUE;
                    END IF;
                END IF;
                SELECT t.parent_key, t.status INTO v_parent, v_root_status FROM \(t) AS t WHERE t.key = v_key;
                IF NOT FOUND THEN
                    \(refuse(.unknown, "v_key", "NULL"))
                END IF;
                CONTINUE WHEN v_root_status = v_status AND v_status <> 'pending';
                v_aux := COALESCE(v_parent, v_key);
                \(holds(t, "v_aux", otherwise: refuse(.lost, "v_aux", "v_root_owner")))
                \(settling(t, output: "p_change_outputs[v_j]", reason: "p_change_reasons[v_j]"))
                WHERE t.key = v_key;
            END LOOP;
            r := NULL;
            \(answer(.settled, "NULL", "NULL", "NULL"))
        EXCEPTION WHEN SQLSTATE 'BKJ01' THEN
            GET STACKED DIAGNOSTICS v_out = MESSAGE_TEXT, v_aux2 = PG_EXCEPTION_DETAIL, v_aux = PG_EXCEPTION_HINT;
            r := NULL;
            RETURN QUERY SELECT v_i, v_out, v_now, NULLIF(v_aux, ''), v_aux2, NULL::bigint, \(recordColumns);
        END;
        """
    }
}
