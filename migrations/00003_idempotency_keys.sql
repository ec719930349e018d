-- Idempotency keys bound to the request they came with, and expiring.
-- A key was the first event's idempotency_key, unique for ever: a second
-- client reusing it got the first one's answer, whatever it asked. Now
-- each key is kept here with a fingerprint of its request and when it was
-- used; the store answers a repeat only for the same fingerprint, and a key
-- older than its time to live matches nothing (its row is then taken over
-- by the next use, or removed at start). This table is an index of
-- requests, not history: its rows may be replaced and removed.

-- +goose Up
CREATE TABLE idempotency_keys (
    scope       TEXT    NOT NULL,  -- where the key is unique: a stream, or a kind of request ("create")
    name        TEXT    NOT NULL,  -- the client's key
    stream      TEXT    NOT NULL,  -- the stream the first append with the key wrote to
    batch       INTEGER NOT NULL,  -- the version of that append's first event
    fingerprint BLOB,              -- what the request was; NULL for keys kept from before
    used_at     TEXT    NOT NULL,  -- UTC, fixed width (2006-01-02T15:04:05.000Z), so it sorts as text
    PRIMARY KEY (scope, name)
) WITHOUT ROWID;

-- The keys already used keep their answers. The game service wrote them as
-- "create:KEY" for a new game and "GAME:KEY" within a game (neither a game
-- id nor "create" holds a colon); without a fingerprint they answer any
-- request, as before, until they expire.
INSERT INTO idempotency_keys (scope, name, stream, batch, fingerprint, used_at)
SELECT CASE WHEN instr(idempotency_key, ':') > 0 THEN substr(idempotency_key, 1, instr(idempotency_key, ':') - 1) ELSE '' END,
       CASE WHEN instr(idempotency_key, ':') > 0 THEN substr(idempotency_key, instr(idempotency_key, ':') + 1) ELSE idempotency_key END,
       stream, batch, NULL, strftime('%Y-%m-%dT%H:%M:%fZ', recorded_at)
FROM events WHERE idempotency_key IS NOT NULL;

-- A key may be used again once it expires: the events' column stays, as a
-- record of the key each command came with, but is no longer unique.
DROP INDEX events_idempotency_key;

-- +goose Down
CREATE UNIQUE INDEX events_idempotency_key ON events (idempotency_key) WHERE idempotency_key IS NOT NULL;
DROP TABLE idempotency_keys;
