package web

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"tappbook/internal/events"
	"tappbook/internal/game"
	"tappbook/internal/payout"
	"tappbook/internal/tapp"
)

// rules.md "End of the session": the old-tapp remainder defaults to cut;
// a game keeps the rules it was started with, and a stored game.started
// that names no remainder (the key absent) folds as it did when it was
// written, under the old default, biggest-loser.
func TestOldTappRemainderDefault(t *testing.T) {
	st := newStore(t)
	svc := game.New(st)
	h, err := New(svc, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	r := do(t, h, "POST", "/api/games", `{"variant":"old-tapp","players":["Anna","Ben","Cleo"]}`)
	if r.status != http.StatusCreated || r.json(t)["rules"].(map[string]any)["remainder"] != payout.RemainderCut {
		t.Fatalf("a new old-tapp game's remainder: %d %s, want cut", r.status, r.body)
	}
	// A new game's form offers cut first.
	if f := page(t, h, "/new/old-tapp", "en").body; !strings.Contains(f, `<option value="cut" selected`) {
		t.Fatal("the start form does not preselect the cut")
	}

	// Stored games, as older servers wrote them: with the key (every
	// server so far filled it in) and, for an import or a hand-made file,
	// without it.
	for _, c := range []struct {
		id    string
		rules string
	}{
		{"storedwithkeyaaaaaaaaaaaaa", `{"stake":"2","remainder":"biggest-loser"}`},
		{"storedwithoutkeyaaaaaaaaaa", `{"stake":"2"}`},
	} {
		var rules map[string]json.RawMessage
		if err := json.Unmarshal([]byte(c.rules), &rules); err != nil {
			t.Fatal(err)
		}
		started := tapp.GameStarted{Variant: payout.OldTapp, Players: []string{"Anna", "Ben", "Cleo"}, Unit: "1", Rules: rules}
		if _, err := st.Append(context.Background(), c.id, 0, events.Key{}, events.NewEvent{Type: tapp.TypeGameStarted, SchemaVersion: tapp.SchemaVersion, Data: started}); err != nil {
			t.Fatal(err)
		}
		if r := do(t, h, "POST", "/api/games/"+c.id+"/hands", `{"contract":"pass"}`); r.status != http.StatusCreated {
			t.Fatalf("%s: record: %d %s", c.id, r.status, r.body)
		}
		if g := do(t, h, "GET", "/api/games/"+c.id, "").json(t); g["rules"].(map[string]any)["remainder"] != payout.RemainderBiggestLoser {
			t.Fatalf("%s: folds with rules %v, want biggest-loser", c.id, g["rules"])
		}
		// Anna dealt and paid the stake: she is the biggest loser and
		// takes both leftover units, no cut asked.
		r := do(t, h, "POST", "/api/games/"+c.id+"/close", `{}`)
		if r.status != http.StatusOK || r.json(t)["balances"].(map[string]any)["Anna"] != "0" {
			t.Fatalf("%s: close: %d %s", c.id, r.status, r.body)
		}
	}
}

// rules.md "End of the session": until the cut is recorded, nothing shown
// may pretend to know who wins it. The settlement preview (API and close
// page) shares the pot equally, says which units are undecided and among
// whom, and names no winner and no payments that depend on the cut.
func TestUndecidedCutIsShownAsUndecided(t *testing.T) {
	h := newServer(t)
	for _, c := range []struct {
		rules, among string
		deals        []string
	}{
		// Anna deals and stakes 2: the pot of 2 leaves 2 units to a cut.
		{`{"remainder":"cut"}`, "Anna Ben Cleo", []string{`{"contract":"pass"}`}},
		// Biggest loser, but Anna and Ben tie for lowest: the cut between
		// them decides. Pot 2 + 2 = 4: 1 each, 1 undecided.
		{`{"remainder":"biggest-loser"}`, "Anna Ben", []string{`{"contract":"pass"}`, `{"contract":"pass"}`}},
	} {
		id := createGame(t, h, `{"variant":"old-tapp","players":["Anna","Ben","Cleo"],"rules":`+c.rules+`}`)
		for _, d := range c.deals {
			do(t, h, "POST", "/api/games/"+id+"/hands", d)
		}
		s := do(t, h, "GET", "/api/games/"+id+"/settlement", "").json(t)
		und, _ := s["undecided"].(map[string]any)
		left := len(c.deals) * 2 % 3
		if s["provisional"] != true || s["remainder_to"] != nil || und == nil || und["units"] != float64(left) || fmt.Sprint(und["among"]) != "["+c.among+"]" {
			t.Fatalf("%s: settlement %v, want %d undecided units among %s and no winner", c.rules, s, left, c.among)
		}
		if ts := s["transfers"].([]any); len(ts) != 0 {
			t.Fatalf("%s: the preview lists payments that depend on the cut: %v", c.rules, ts)
		}
		share := fmt.Sprint(len(c.deals) * 2 / 3)
		for _, name := range []string{"Anna", "Ben", "Cleo"} {
			if got := s["split"].(map[string]any)[name]; got != share {
				t.Fatalf("%s: %s's share is %v before the cut, want the equal share %s", c.rules, name, got, share)
			}
		}
		for _, lang := range []string{"en", "de", "sv"} {
			body := visibleText(page(t, h, "/g/"+id+"/close", lang).body)
			says := map[string]string{"en": "undecided", "de": "offen", "sv": "oavgjort"}[lang]
			if !strings.Contains(body, says) || strings.Contains(body, "Everyone is square") {
				t.Fatalf("%s close page (%s) does not say the cut is undecided: %s", c.rules, lang, body)
			}
		}
		// Recorded, the cut decides: the closed settlement names the winner.
		winner := strings.Fields(c.among)[1]
		r := do(t, h, "POST", "/api/games/"+id+"/close", `{"remainder_to":["`+winner+`"]}`)
		if r.status != http.StatusOK {
			t.Fatalf("%s: close: %d %s", c.rules, r.status, r.body)
		}
		if s := do(t, h, "GET", "/api/games/"+id+"/settlement", "").json(t); s["undecided"] != nil || s["provisional"] != nil || fmt.Sprint(s["remainder_to"]) == "[]" {
			t.Fatalf("%s: the closed settlement: %v", c.rules, s)
		}
	}
}
