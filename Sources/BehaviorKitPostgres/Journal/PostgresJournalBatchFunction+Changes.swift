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
    static func changes(_ t: String) -> String {
        """
        BEGIN
            FOR v_change IN SELECT e.value FROM jsonb_array_elements(v_op->'changes') AS e LOOP
                v_key := v_change->>'key';
                v_status := v_change->>'status';
                IF v_change ? 'kind' THEN
                    v_parent := v_change->>'parent';
                    v_payload := decode(COALESCE(v_change->>'payload', ''), 'base64');
                    SELECT * INTO r FROM \(t) AS t WHERE t.key = v_key;
                    IF FOUND THEN
                        IF r.kind IS DISTINCT FROM v_change->>'kind' OR r.payload IS DISTINCT FROM v_payload
                            OR r.parent_key IS DISTINCT FROM v_parent THEN
                            \(refuse(.conflict, "v_key", "NULL"))
                        END IF;
                    ELSE
                        IF v_parent IS NULL THEN
                            \(refuse(.unknown, "v_key", "NULL"))
                        END IF;
                        \(holds(t, "v_parent", otherwise: refuse(.lost, "v_parent", "v_root_owner")))
                        INSERT INTO \(t) AS t (key, kind, payload, parent_key, status, attempts, created_at,
                            updated_at)
                        VALUES (v_key, v_change->>'kind', v_payload, v_parent, 'pending', 0, v_now, v_now);
                    END IF;
                END IF;
                SELECT t.parent_key, t.status INTO v_parent, v_root_status FROM \(t) AS t WHERE t.key = v_key;
                IF NOT FOUND THEN
                    \(refuse(.unknown, "v_key", "NULL"))
                END IF;
                CONTINUE WHEN v_root_status = v_status AND v_status <> 'pending';
                v_aux := COALESCE(v_parent, v_key);
                \(holds(t, "v_aux", otherwise: refuse(.lost, "v_aux", "v_root_owner")))
                \(settling(t, from: "v_change"))
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
