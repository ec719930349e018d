package postgres_test

import (
	"context"
	"errors"
	"testing"

	"tappbook/internal/events"
	"tappbook/internal/events/postgres"
)

// Given a URL that asks for the server taking writes
// (target_session_attrs=read-write, as a primary and its standby are
// named), a store opened read-only (verify, export, backup) connects to
// that server and reads, and still writes nothing.
func TestReadOnlyOnAReadWriteURL(t *testing.T) {
	ctx := context.Background()
	url := pg.Database(t)
	st, err := postgres.Open(ctx, url, postgres.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Append(ctx, "g1", 0, events.Key{}, events.NewEvent{Type: "t", SchemaVersion: 1, Data: map[string]int{"n": 1}}); err != nil {
		t.Fatal(err)
	}
	st.Close()
	ro, err := postgres.Open(ctx, url+"&target_session_attrs=read-write", postgres.Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("open read-only on a read-write URL: %v", err)
	}
	defer ro.Close()
	if v, err := ro.StreamVersion(ctx, "g1"); err != nil || v != 1 {
		t.Fatalf("read: version %d, %v", v, err)
	}
	if _, err := ro.Append(ctx, "g1", 1, events.Key{}, events.NewEvent{Type: "t", SchemaVersion: 1, Data: map[string]int{"n": 2}}); !errors.Is(err, events.ErrReadOnly) {
		t.Fatalf("append on a read-only store: %v", err)
	}
	var ro2 string
	if err := postgres.PoolDB(ro).QueryRowContext(ctx, `SHOW default_transaction_read_only`).Scan(&ro2); err != nil || ro2 != "on" {
		t.Fatalf("default_transaction_read_only %q, %v", ro2, err)
	}
}
