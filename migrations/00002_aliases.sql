-- Other names for a stream: a game's read-only link resolves through here.
-- Written in the same transaction as the events that create them.

-- +goose Up
CREATE TABLE stream_aliases (
    alias  TEXT PRIMARY KEY,
    stream TEXT NOT NULL
) WITHOUT ROWID;

-- +goose StatementBegin
CREATE TRIGGER stream_aliases_no_update BEFORE UPDATE ON stream_aliases
BEGIN
    SELECT RAISE(ABORT, 'a stream alias cannot be changed');
END;
-- +goose StatementEnd

-- +goose Down
DROP TABLE stream_aliases;
