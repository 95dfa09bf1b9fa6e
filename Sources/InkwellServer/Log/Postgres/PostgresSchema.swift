/// The pack log's tables in PostgreSQL, as migrations: versioned and append-only. Each is a list of
/// statements run in one transaction; a database that has run a migration this version does not know was
/// made by a newer server, which this one refuses (``PostgresPackLog/Failure/newerSchema(found:known:)``).
///
/// The tables mirror the SQLite log's (PackLog.swift and its extensions), with two differences: each room
/// has a `room_head` row, which commits lock to take positions (see ``PostgresPackLog``), and where a
/// pack ends in its room's bytes is kept in its own row rather than a table beside it.
enum PostgresSchema {
    static let migrations: [[String]] = [
        [
            """
            CREATE TABLE server_identity (
                singleton integer PRIMARY KEY CHECK (singleton = 1),
                replica bytea NOT NULL CHECK (length(replica) = 16)
            )
            """,
            """
            CREATE TABLE room_head (
                room text PRIMARY KEY,
                head bigint NOT NULL CHECK (head >= 0),
                end_offset bigint NOT NULL CHECK (end_offset >= 0)
            )
            """,
            """
            CREATE TABLE pack (
                room text NOT NULL,
                position bigint NOT NULL CHECK (position >= 1),
                pack_id bytea NOT NULL CHECK (length(pack_id) IN (16, 32)),
                bytes bytea NOT NULL,
                end_offset bigint NOT NULL CHECK (end_offset >= 0),
                PRIMARY KEY (room, position),
                UNIQUE (room, pack_id)
            )
            """,
            """
            CREATE TABLE device_watermark (
                room text NOT NULL,
                device bytea NOT NULL CHECK (length(device) = 16),
                position bigint NOT NULL CHECK (position >= 0),
                seen_at bigint NOT NULL,
                PRIMARY KEY (room, device)
            )
            """,
            """
            CREATE TABLE room_access (
                room text PRIMARY KEY,
                admin_hash bytea CHECK (admin_hash IS NULL OR length(admin_hash) = 32),
                edit_hash bytea CHECK (edit_hash IS NULL OR length(edit_hash) = 32),
                view_hash bytea CHECK (view_hash IS NULL OR length(view_hash) = 32),
                CHECK ((admin_hash IS NULL) = (edit_hash IS NULL) AND (edit_hash IS NULL) = (view_hash IS NULL))
            )
            """,
            """
            CREATE TABLE room_blob (
                room text NOT NULL,
                hash bytea NOT NULL CHECK (length(hash) = 32),
                size bigint NOT NULL CHECK (size >= 0),
                PRIMARY KEY (room, hash)
            )
            """,
            """
            CREATE TABLE room_snapshot (
                room text NOT NULL,
                snapshot bytea NOT NULL CHECK (length(snapshot) = 16),
                author bytea NOT NULL CHECK (length(author) = 16),
                covers bigint NOT NULL CHECK (covers >= 1),
                parts bigint NOT NULL CHECK (parts >= 1),
                claim bytea NOT NULL CHECK (length(claim) = 32),
                held bigint NOT NULL DEFAULT 0,
                bytes bigint NOT NULL DEFAULT 0,
                PRIMARY KEY (room, snapshot)
            )
            """,
            """
            CREATE TABLE snapshot_part (
                room text NOT NULL,
                snapshot bytea NOT NULL,
                part bigint NOT NULL,
                position bigint NOT NULL,
                PRIMARY KEY (room, snapshot, part)
            )
            """,
            """
            CREATE TABLE snapshot_check (
                room text NOT NULL,
                snapshot bytea NOT NULL,
                replica bytea NOT NULL,
                checked_at bigint NOT NULL,
                PRIMARY KEY (room, snapshot, replica)
            )
            """,
            """
            CREATE TABLE room_author (
                room text NOT NULL,
                replica bytea NOT NULL CHECK (length(replica) = 16),
                seen_at bigint NOT NULL,
                PRIMARY KEY (room, replica)
            )
            """,
            """
            CREATE TABLE room_floor (
                room text PRIMARY KEY,
                position bigint NOT NULL CHECK (position >= 1),
                end_offset bigint NOT NULL,
                snapshot bytea NOT NULL,
                covers bigint NOT NULL
            )
            """,
        ],
        [
            // That these authors pushed to (or checked a snapshot of) these rooms at `seen`: every writer of
            // the table, so that each takes its rows in one order (room, then replica) and commits on several
            // nodes never wait on each other in a cycle.
            """
            CREATE FUNCTION inkwell_see(rooms text[], replicas bytea[], seen bigint) RETURNS void
            LANGUAGE sql VOLATILE AS $$
                INSERT INTO room_author (room, replica, seen_at)
                SELECT DISTINCT a.room, a.replica, seen FROM unnest(rooms, replicas) AS a(room, replica)
                ORDER BY 1, 2
                ON CONFLICT (room, replica) DO UPDATE SET seen_at = greatest(room_author.seen_at, excluded.seen_at)
            $$
            """,
            // Where devices stand, the newest of each device and room; a watermark only moves forward. Every
            // writer of the table, in one order (room, then device), as above.
            """
            CREATE FUNCTION inkwell_set_watermarks(rooms text[], devices bytea[], positions bigint[], seen bigint)
            RETURNS void
            LANGUAGE sql VOLATILE AS $$
                INSERT INTO device_watermark (room, device, position, seen_at)
                SELECT m.room, m.device, max(m.position), seen
                FROM unnest(rooms, devices, positions) AS m(room, device, position)
                GROUP BY 1, 2 ORDER BY 1, 2
                ON CONFLICT (room, device) DO UPDATE SET
                    position = greatest(device_watermark.position, excluded.position),
                    seen_at = greatest(device_watermark.seen_at, excluded.seen_at)
            $$
            """,
            // A commit's first statement: locks its rooms' rows (made first for rooms new to the log), in
            // ascending order of room, and only then reads their heads and floors and which of its packs
            // are stored. Each statement of a function sees what committed before it began, so the reads
            // see every commit the locks waited for: one round trip instead of three, while the commit
            // holds no lock yet.
            """
            CREATE FUNCTION inkwell_take_rooms(names text[], key_rooms text[], key_ids bytea[])
            RETURNS TABLE (
                t_room text, t_head bigint, t_end bigint, t_floor bigint,
                t_pack bytea, t_position bigint, t_bytes bytea
            )
            LANGUAGE plpgsql VOLATILE AS $$
            BEGIN
                INSERT INTO room_head (room, head, end_offset) SELECT unnest(names), 0, 0 ON CONFLICT DO NOTHING;
                PERFORM 1 FROM room_head h WHERE h.room = ANY(names) ORDER BY h.room FOR UPDATE;
                RETURN QUERY
                    SELECT h.room, h.head, h.end_offset, coalesce(f.end_offset, 0), NULL::bytea, NULL::bigint,
                        NULL::bytea
                    FROM room_head h LEFT JOIN room_floor f ON f.room = h.room
                    WHERE h.room = ANY(names);
                RETURN QUERY
                    SELECT p.room, NULL::bigint, NULL::bigint, NULL::bigint, p.pack_id, p.position, p.bytes
                    FROM unnest(key_rooms, key_ids) AS w(room, pack_id)
                    JOIN pack p ON p.room = w.room AND p.pack_id = w.pack_id;
            END
            $$
            """,
            // A whole commit of pushes that carry no snapshot part, as one statement, so that no round trip
            // to the node comes between taking the rooms' rows and committing: the same decisions as
            // PostgresPackLog+Append.swift takes for such pushes, in the same order. Each push gets an
            // outcome (0 stored, 1 conflict, 2 room full) and the position it was stored at.
            """
            CREATE FUNCTION inkwell_append(
                p_room text[], p_id bytea[], p_bytes bytea[], p_has_origin boolean[], p_origin bigint[],
                p_author bytea[], maximum_room_bytes bigint, p_now bigint,
                w_room text[], w_device bytea[], w_position bigint[]
            )
            RETURNS TABLE (t_outcome smallint, t_position bigint)
            LANGUAGE plpgsql VOLATILE AS $$
            DECLARE
                names text[] := ARRAY(SELECT DISTINCT x FROM unnest(p_room) AS x ORDER BY 1);
                heads bigint[];
                ends bigint[];
                floors bigint[];
                changed boolean[] := array_fill(false, ARRAY[cardinality(names)]);
                refused_room text[] := '{}';
                refused_origin bigint[] := '{}';
                seen_room text[] := '{}';
                seen_author bytea[] := '{}';
                r integer;
                found_position bigint;
                found_bytes bytea;
            BEGIN
                IF cardinality(names) > 0 THEN
                    INSERT INTO room_head (room, head, end_offset) SELECT unnest(names), 0, 0
                    ON CONFLICT DO NOTHING;
                    PERFORM 1 FROM room_head h WHERE h.room = ANY(names) ORDER BY h.room FOR UPDATE;
                    SELECT array_agg(h.head ORDER BY h.room), array_agg(h.end_offset ORDER BY h.room),
                        array_agg(coalesce(f.end_offset, 0) ORDER BY h.room)
                    INTO heads, ends, floors
                    FROM room_head h LEFT JOIN room_floor f ON f.room = h.room
                    WHERE h.room = ANY(names);
                    IF cardinality(heads) IS DISTINCT FROM cardinality(names) THEN
                        RAISE EXCEPTION 'a room''s head row is missing';
                    END IF;
                END IF;
                FOR i IN 1 .. coalesce(cardinality(p_room), 0) LOOP
                    r := array_position(names, p_room[i]);
                    t_position := 0;
                    IF p_has_origin[i] AND EXISTS (
                        SELECT 1 FROM unnest(refused_room, refused_origin) AS x(room, origin)
                        WHERE x.room = p_room[i] AND x.origin = p_origin[i]
                    ) THEN
                        t_outcome := 2;
                        RETURN NEXT;
                        CONTINUE;
                    END IF;
                    SELECT p.position, p.bytes INTO found_position, found_bytes
                    FROM pack p WHERE p.room = p_room[i] AND p.pack_id = p_id[i];
                    IF FOUND THEN
                        IF found_bytes <> p_bytes[i] THEN
                            t_outcome := 1;
                        ELSE
                            t_outcome := 0;
                            t_position := found_position;
                            IF length(p_author[i]) > 0 THEN
                                seen_room := seen_room || p_room[i];
                                seen_author := seen_author || p_author[i];
                            END IF;
                        END IF;
                        RETURN NEXT;
                        CONTINUE;
                    END IF;
                    IF ends[r] - floors[r] + length(p_bytes[i]) > maximum_room_bytes THEN
                        IF p_has_origin[i] THEN
                            refused_room := refused_room || p_room[i];
                            refused_origin := refused_origin || p_origin[i];
                        END IF;
                        t_outcome := 2;
                        RETURN NEXT;
                        CONTINUE;
                    END IF;
                    heads[r] := heads[r] + 1;
                    ends[r] := ends[r] + length(p_bytes[i]);
                    changed[r] := true;
                    INSERT INTO pack (room, position, pack_id, bytes, end_offset)
                    VALUES (p_room[i], heads[r], p_id[i], p_bytes[i], ends[r]);
                    IF length(p_author[i]) > 0 THEN
                        seen_room := seen_room || p_room[i];
                        seen_author := seen_author || p_author[i];
                    END IF;
                    t_outcome := 0;
                    t_position := heads[r];
                    RETURN NEXT;
                END LOOP;
                UPDATE room_head h SET head = c.head, end_offset = c.end_offset
                FROM unnest(names, heads, ends, changed) AS c(room, head, end_offset, changed)
                WHERE h.room = c.room AND c.changed;
                PERFORM inkwell_see(seen_room, seen_author, p_now);
                PERFORM inkwell_set_watermarks(w_room, w_device, w_position, p_now);
            END
            $$
            """,
        ],
    ]
}
