/// The server side of a ``PostgresMachineStore``'s commits: a PL/pgSQL function, made with the
/// tables, that applies a batch of commits (a JSON array) in order, in the call's one
/// transaction, and returns one row per commit. A batch is one round trip, one transaction and
/// one WAL flush, however many commits it holds.
///
/// Each commit, under READ COMMITTED (each statement sees what committed before it):
/// - locks its instance (`SELECT … FOR UPDATE`; for version 0, `INSERT … ON CONFLICT DO
///   NOTHING`, which waits for a concurrent insert of the key and then does nothing), so that
///   commits of one key run one at a time across every connection, and a second commit computed
///   from one version finds the version moved on;
/// - answers `duplicate` with the recorded step when a step of the instance has the commit's
///   event id, `conflict` with the current version when the instance is not at the expected
///   one; and changes nothing then;
/// - otherwise writes the instance, replaces its state rows, inserts the step, deletes the
///   disarmed timers and stopped effects, and upserts the armed timers and started effects (an
///   effect started again under an id it still has keeps its attempts, never fewer, so that the
///   token of a worker that held it before stays stale).
///
/// Rows: the commit's position (from 1), `committed`, `conflict` or `duplicate`, the instance's
/// version (NULL when it does not exist), then the recorded step for `duplicate` (or NULLs).
enum PostgresMachineCommitFunction {
    /// The function's name for `prefix`: versioned, so that a later layout adds its own.
    static func name(_ prefix: String) -> String { "\(prefix)_commit_v1" }

    static func answer(_ outcome: String, _ version: String, step: String? = nil) -> String {
        let columns =
            step.map { "\($0).sequence, \($0).event_id, \($0).at, \($0).body" }
            ?? "NULL::bigint, NULL::text, NULL::bigint, NULL::bytea"
        return "RETURN QUERY SELECT v_i, '\(outcome)'::text, \(version)::bigint, \(columns);"
    }

    static func create(_ prefix: String) -> String {
        let instance = "\"\(prefix)_instance\""
        let state = "\"\(prefix)_state\""
        let step = "\"\(prefix)_step\""
        let timer = "\"\(prefix)_timer\""
        let effect = "\"\(prefix)_effect\""
        let this = "machine = v_machine AND key = v_key"
        return """
            CREATE OR REPLACE FUNCTION "\(name(prefix))"(p_commits jsonb)
            RETURNS TABLE (o_index bigint, o_outcome text, o_version bigint, o_sequence bigint, o_event_id text,
                o_at bigint, o_body bytea)
            LANGUAGE plpgsql VOLATILE AS $fn$
            DECLARE
                v_c jsonb; v_i bigint; v_machine text; v_key text; v_expected bigint; v_version bigint;
                v_event text; v_at bigint; v_current bigint; v_new boolean; v_step record;
            BEGIN
                FOR v_c, v_i IN SELECT e.value, e.ordinality FROM jsonb_array_elements(p_commits) WITH ORDINALITY AS e LOOP
                    v_machine := v_c->>'m';
                    v_key := v_c->>'k';
                    v_expected := (v_c->>'x')::bigint;
                    v_version := (v_c->>'v')::bigint;
                    v_event := v_c->>'e';
                    v_at := (v_c->>'t')::bigint;
                    v_current := NULL;
                    v_new := false;
                    IF v_expected = 0 THEN
                        INSERT INTO \(instance) (machine, key, version, snapshot, created_at, updated_at)
                        VALUES (v_machine, v_key, v_version, decode(v_c->>'s', 'base64'), v_at, v_at)
                        ON CONFLICT (machine, key) DO NOTHING;
                        v_new := FOUND;
                        IF NOT v_new THEN
                            SELECT version INTO v_current FROM \(instance) WHERE \(this);
                        END IF;
                    ELSE
                        SELECT version INTO v_current FROM \(instance) WHERE \(this) FOR UPDATE;
                    END IF;
                    IF NOT v_new THEN
                        IF v_event IS NOT NULL AND v_current IS NOT NULL THEN
                            SELECT sequence, event_id, at, body INTO v_step FROM \(step)
                            WHERE \(this) AND event_id = v_event;
                            IF FOUND THEN
                                \(answer("duplicate", "v_current", step: "v_step"))
                                CONTINUE;
                            END IF;
                        END IF;
                        IF v_current IS NULL OR v_current <> v_expected OR v_expected = 0 THEN
                            \(answer("conflict", "v_current"))
                            CONTINUE;
                        END IF;
                        UPDATE \(instance) SET version = v_version, snapshot = decode(v_c->>'s', 'base64'),
                            updated_at = v_at
                        WHERE \(this);
                        DELETE FROM \(state) WHERE \(this);
                    END IF;
                    INSERT INTO \(state) (machine, key, position, state, entered_at)
                    SELECT v_machine, v_key, e.ordinality, e.value->>'s', (e.value->>'t')::bigint
                    FROM jsonb_array_elements(v_c->'st') WITH ORDINALITY AS e;
                    INSERT INTO \(step) (machine, key, sequence, event_id, at, body)
                    VALUES (v_machine, v_key, v_version, v_event, v_at, decode(v_c->>'b', 'base64'));
                    IF jsonb_array_length(v_c->'td') > 0 THEN
                        DELETE FROM \(timer) WHERE \(this)
                            AND id IN (SELECT jsonb_array_elements_text(v_c->'td'));
                    END IF;
                    IF jsonb_array_length(v_c->'ta') > 0 THEN
                        INSERT INTO \(timer) (machine, key, id, due_at, body)
                        SELECT v_machine, v_key, e->>'i', (e->>'d')::bigint, decode(e->>'b', 'base64')
                        FROM jsonb_array_elements(v_c->'ta') AS e
                        ON CONFLICT (machine, key, id) DO UPDATE SET due_at = EXCLUDED.due_at, body = EXCLUDED.body;
                    END IF;
                    IF jsonb_array_length(v_c->'ed') > 0 THEN
                        DELETE FROM \(effect) WHERE \(this)
                            AND id IN (SELECT jsonb_array_elements_text(v_c->'ed'));
                    END IF;
                    IF jsonb_array_length(v_c->'ea') > 0 THEN
                        INSERT INTO \(effect) (machine, key, id, body, owner, lease_expires_at, attempts)
                        SELECT v_machine, v_key, e->>'i', decode(e->>'b', 'base64'), e->>'o', (e->>'l')::bigint,
                            (e->>'n')::bigint
                        FROM jsonb_array_elements(v_c->'ea') AS e
                        ON CONFLICT (machine, key, id) DO UPDATE SET body = EXCLUDED.body, owner = EXCLUDED.owner,
                            lease_expires_at = EXCLUDED.lease_expires_at,
                            attempts = GREATEST(\(effect).attempts, EXCLUDED.attempts);
                    END IF;
                    \(answer("committed", "v_version"))
                END LOOP;
            END
            $fn$
            """
    }

    /// The call: `$1` the commits.
    static func call(_ prefix: String) -> String {
        "SELECT * FROM \"\(name(prefix))\"($1::text::jsonb)"
    }
}
