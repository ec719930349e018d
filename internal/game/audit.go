package game

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"tappbook/internal/events"
	"tappbook/internal/group"
	"tappbook/internal/tapp"
)

// AuditReport is what Audit checked and the first thing it found wrong.
type AuditReport struct {
	Events, Games, Deals int
	Groups               int    // groups folded and their evenings checked (group_audit.go)
	Problem              string // empty when everything matches
}

// Audit checks a whole database: every stream's hash chain (nothing
// changed, removed or reordered), then every game folded event by event,
// each deal re-scored from its record with the payout engine as it stood
// at that point (the dealer by the deal's number, the pot before it) and
// compared with the changes stored when it was recorded.
func Audit(ctx context.Context, store *events.Store) (AuditReport, error) {
	var rep AuditReport
	chain, err := store.Verify(ctx)
	if err != nil {
		return rep, err
	}
	rep.Events = chain.Events
	if chain.Problem != nil {
		rep.Problem = chain.Problem.Error()
		return rep, nil
	}
	// One pass over every event in stored order, each game folded until
	// its last event (see events.Store.ReplayAll).
	games := map[string]*tapp.Folder{}
	groups := newGroupAudit()
	err = store.ReplayAll(ctx, func(e events.Event, last bool) error {
		if taken, problem := groups.take(e, last); taken {
			if problem != "" {
				rep.Problem = fmt.Sprintf("event %d (group %s, version %d, %s): %s", e.Seq, e.Stream, e.Version, e.Type, problem)
				return errAuditStop
			}
			return nil
		}
		f := games[e.Stream]
		if f == nil {
			f = tapp.NewFolder(e.Stream)
			games[e.Stream] = f
			rep.Games++
		}
		problem := check(f, e, &rep)
		if problem != "" {
			rep.Problem = fmt.Sprintf("event %d (game %s, version %d, %s): %s", e.Seq, e.Stream, e.Version, e.Type, problem)
			return errAuditStop
		}
		if last {
			delete(games, e.Stream)
		}
		return nil
	})
	if err != nil && !errors.Is(err, errAuditStop) {
		return rep, err
	}
	rep.Groups = len(groups.groups)
	if rep.Problem == "" {
		rep.Problem = groups.finish()
	}
	return rep, nil
}

// check re-scores the deal an event stores against the game as it stands
// before the event, then folds the event; it says what is wrong, if
// anything.
func check(f *tapp.Folder, e events.Event, rep *AuditReport) string {
	st := f.Peek()
	p, err := tapp.Decode(e.Type, e.Data, st.Setup.Players)
	if err != nil {
		return err.Error()
	}
	scored, err := st.Recheck(p)
	if scored {
		rep.Deals++
	}
	if err != nil {
		return err.Error()
	}
	if err := f.Apply(Stored(e, p)); err != nil {
		return err.Error()
	}
	return ""
}

// errAuditStop ends the pass at the first problem, which the report holds.
var errAuditStop = errors.New("audit: stop at the first problem")

// exported is one event in an export file: everything needed to write it
// again, and its hash to check that nothing changed on the way.
type exported struct {
	Stream        string          `json:"stream"`
	Version       int64           `json:"version"`
	Batch         int64           `json:"batch"`
	Type          string          `json:"type"`
	SchemaVersion int             `json:"schema_version"`
	At            time.Time       `json:"at"`
	Data          json.RawMessage `json:"data"`
	Hash          string          `json:"hash"`
}

// Export writes a game's events as JSON lines, oldest first; a group's, with
// its evenings' (group_archive.go).
func Export(ctx context.Context, store *events.Store, id string, w io.Writer) (int, error) {
	evs, err := store.ReadStream(ctx, id)
	if err != nil {
		return 0, err
	}
	if len(evs) == 0 {
		return 0, tapp.Messages().NotFound("notfound.game")
	}
	if evs[0].Type == group.TypeStarted {
		return exportGroup(ctx, store, evs, w)
	}
	enc := json.NewEncoder(w)
	for _, e := range evs {
		if err := enc.Encode(exported{Stream: e.Stream, Version: e.Version, Batch: e.Batch, Type: e.Type,
			SchemaVersion: e.SchemaVersion, At: e.RecordedAt, Data: e.Data, Hash: e.Hash}); err != nil {
			return 0, fmt.Errorf("export %s: %w", id, err)
		}
	}
	return len(evs), nil
}

// Import recreates a game from an export: the same id, events, times and
// hashes, and its read-only link (or a group with its evenings:
// group_archive.go). The game must fold, so a file that is not a game is
// refused before anything is written.
func Import(ctx context.Context, store *events.Store, r io.Reader) (string, int, error) {
	var evs []events.Event
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	for line := 1; sc.Scan(); line++ {
		if len(sc.Bytes()) == 0 {
			continue
		}
		var x exported
		if err := json.Unmarshal(sc.Bytes(), &x); err != nil {
			return "", 0, fmt.Errorf("import: line %d: %w", line, err)
		}
		evs = append(evs, events.Event{Stream: x.Stream, Version: x.Version, Batch: x.Batch, Type: x.Type,
			SchemaVersion: x.SchemaVersion, RecordedAt: x.At, Data: x.Data, Hash: x.Hash})
	}
	if err := sc.Err(); err != nil {
		return "", 0, fmt.Errorf("import: %w", err)
	}
	if len(evs) == 0 {
		return "", 0, fmt.Errorf("import: the file holds no events")
	}
	if evs[0].Type == group.TypeStarted {
		return importGroup(ctx, store, evs)
	}
	id := evs[0].Stream
	g, err := Fold(id, evs)
	if err != nil {
		return "", 0, fmt.Errorf("import: not a game tappbook can read: %w", err)
	}
	var aliases []string
	if g.ReadID != "" {
		aliases = append(aliases, g.ReadID)
	}
	if err := store.Import(ctx, evs, aliases); err != nil {
		return "", 0, err
	}
	return id, len(evs), nil
}

// Fold folds a game from its stored events, decoding each.
func Fold(id string, evs []events.Event) (*tapp.State, error) {
	f := tapp.NewFolder(id)
	for _, ev := range evs {
		p, err := tapp.Decode(ev.Type, ev.Data, nil)
		if err != nil {
			return nil, fmt.Errorf("event %d: %w", ev.Version, err)
		}
		if err := f.Apply(Stored(ev, p)); err != nil {
			return nil, err
		}
	}
	st := f.State()
	if !st.Started() {
		return nil, fmt.Errorf("no events")
	}
	return st, nil
}
