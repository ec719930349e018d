package game

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"tappbook/internal/events"
	"tappbook/internal/events/sqlite"
	"tappbook/internal/group"
)

// storedStreams gives every stream of a store, its group's first: an
// evening's join is then stored before its game starts, which Audit must
// wait for to decide the join again.
func storedStreams(t *testing.T, store events.Engine) []string {
	t.Helper()
	var groups, games []string
	err := store.ReplayAll(ctx, func(e events.Event, last bool) error {
		if e.Version == 1 && e.Type == group.TypeStarted {
			groups = append(groups, e.Stream)
		} else if e.Version == 1 {
			games = append(games, e.Stream)
		}
		return nil
	})
	nothing(t, err)
	return append(groups, games...)
}

// readKeys is a stream's read-only key, as its first event names it, for
// a copy to keep the links the original had.
func readKeys(t *testing.T, evs []events.Event) []string {
	t.Helper()
	var first struct {
		ReadID string `json:"read_id"`
	}
	nothing(t, json.Unmarshal(evs[0].Data, &first))
	return []string{first.ReadID}
}

// forgery is one event of a stream rewritten: the k-th of its type, its
// payload's first old replaced by new.
type forgery struct {
	stream, typ string
	k           int
	old, new    string
}

// forge copies every stream of src into a new database through the real
// store, with one event rewritten and its stream's hash chain computed
// again from there, as someone editing the database with its triggers
// dropped could. It gives the new store and the rewritten event as stored.
func forge(t *testing.T, src events.Engine, f forgery) (*sqlite.Store, events.Event) {
	t.Helper()
	dst, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "forged.db"), sqlite.Options{})
	nothing(t, err)
	t.Cleanup(func() { dst.Close() })
	var version int64
	for _, id := range storedStreams(t, src) {
		evs, err := src.ReadStream(ctx, id)
		nothing(t, err)
		seen := 0
		for i := range evs {
			if id == f.stream && evs[i].Type == f.typ && version == 0 {
				if seen++; seen > f.k {
					data := bytes.Replace(evs[i].Data, []byte(f.old), []byte(f.new), 1)
					if bytes.Equal(data, evs[i].Data) {
						t.Fatalf("%s of %s has no %s: %s", f.typ, id, f.old, evs[i].Data)
					}
					evs[i].Data, version = data, evs[i].Version
				}
			}
			if version != 0 && id == f.stream { // the chain from the edit on
				if i > 0 {
					evs[i].PrevHash = evs[i-1].Hash
				}
				evs[i].Hash = evs[i].ComputeHash()
			}
		}
		nothing(t, dst.Import(ctx, evs, readKeys(t, evs)))
	}
	if version == 0 {
		t.Fatalf("no %s in %s", f.typ, f.stream)
	}
	evs, err := dst.ReadStream(ctx, f.stream)
	nothing(t, err)
	return dst, evs[version-1]
}

// A database edited directly, each edit's hash chain mended, is caught by
// verify where import would refuse the same history: every command is
// decided again as tappbook decides it, not only its deals re-scored.
func TestAuditDecidesEveryCommandAgain(t *testing.T) {
	s, _ := newService(t)
	ids := everyKindOfEvening(t, s)
	z, w, grp := ids[0], ids[3], ids[4]
	cases := []struct {
		name string
		f    forgery
		says string
	}{
		// Ben's 30 paid in two parts: the balances still settle.
		{"a close with other transfers", forgery{w, "game.closed", 0,
			`{"from":"Anna","to":"Ben","amount":"30"}`,
			`{"from":"Anna","to":"Ben","amount":"29"},{"from":"Anna","to":"Ben","amount":"1"}`}, "transfers"},
		{"sent, said by the payee", forgery{z, "transfer.paid", 0, `"by":"Anna"`, `"by":"Ben"`}, "only Anna"},
		{"received, said by the payer", forgery{z, "transfer.confirmed", 0, `"by":"Ben"`, `"by":"Anna"`}, "only Ben"},
		{"a deal's text", forgery{z, "hand.recorded", 0, `"text":"`, `"text":"100 from each opponent. `}, "text"},
		{"a group's payment of 1.505 CHF", forgery{grp, "payment.recorded", 0, `"amount":"1.5"`, `"amount":"1.505"`}, "decimal places"},
		{"a group's currency XXXX", forgery{grp, "group.started", 0, `"currency":"CHF"`, `"currency":"XXXX"`}, "XXXX"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dst, ev := forge(t, s.Store(), c.f)
			rep, err := Audit(ctx, dst)
			kind := "game"
			if c.f.stream == grp {
				kind = "group"
			}
			at := fmt.Sprintf("event %d (%s %s, version %d, %s): ", ev.Seq, kind, ev.Stream, ev.Version, ev.Type)
			if err != nil || !strings.HasPrefix(rep.Problem, at) || !strings.Contains(rep.Problem, c.says) {
				t.Fatalf("audit: %+v %v, want a problem beginning %q and naming %q", rep, err, at, c.says)
			}
		})
	}
}

// Every history tappbook writes passes verify: each variant with its
// closes, marks, reopens and a group's evenings and payments, as stored
// (a group's join before its game's start) and copied stream by stream.
func TestAuditPassesEveryKindOfEvening(t *testing.T) {
	s, _ := newService(t)
	everyKindOfEvening(t, s)
	rep, err := Audit(ctx, s.Store())
	if err != nil || rep.Problem != "" || rep.Games != 7 || rep.Groups != 1 || rep.Deals == 0 {
		t.Fatalf("audit: %+v %v", rep, err)
	}
	dst, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "copy.db"), sqlite.Options{})
	nothing(t, err)
	defer dst.Close()
	for _, id := range storedStreams(t, s.Store()) {
		evs, err := s.Store().ReadStream(ctx, id)
		nothing(t, err)
		nothing(t, dst.Import(ctx, evs, readKeys(t, evs)))
	}
	if again, err := Audit(ctx, dst); err != nil || again != rep {
		t.Fatalf("audit of the copy: %+v %v, want %+v", again, err, rep)
	}
}

// Given a database where one evening's read-only key opens another
// evening (the keys sit beside the hash chain), when it is audited, then
// the key is named; the same streams with their own keys pass.
func TestAuditChecksEveryReadOnlyKey(t *testing.T) {
	s, _ := newService(t)
	four := []string{"Anna", "Ben", "Cleo", "Dan"}
	a, err := s.Create(ctx, NewGame{Variant: "zuger", Players: four}, "")
	nothing(t, err)
	b, err := s.Create(ctx, NewGame{Variant: "zuger", Players: four}, "")
	nothing(t, err)
	copyWith := func(aliases map[string][]string) *sqlite.Store {
		dst, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "copy.db"), sqlite.Options{})
		nothing(t, err)
		t.Cleanup(func() { dst.Close() })
		for _, id := range []string{a.ID, b.ID} {
			evs, err := s.Store().ReadStream(ctx, id)
			nothing(t, err)
			nothing(t, dst.Import(ctx, evs, aliases[id]))
		}
		return dst
	}
	rep, err := Audit(ctx, copyWith(map[string][]string{a.ID: {a.ReadID}, b.ID: {b.ReadID}}))
	if err != nil || rep.Problem != "" {
		t.Fatalf("each key its own evening's: %+v %v", rep, err)
	}
	rep, err = Audit(ctx, copyWith(map[string][]string{b.ID: {a.ReadID, b.ReadID}}))
	if err != nil || rep.Problem != fmt.Sprintf("the read-only key %s of %s opens %s in this database", a.ReadID, a.ID, b.ID) {
		t.Fatalf("%s's key opening %s: %+v %v", a.ID, b.ID, rep, err)
	}
}
