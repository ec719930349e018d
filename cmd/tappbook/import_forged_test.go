package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// rechain writes lines as the exporter does, each stream's hashes computed
// afresh along its own chain and its end record after it: a forger who
// knows the format (the chain is an unkeyed SHA-256) makes such a file.
func rechain(t *testing.T, lines []exportLine) []byte {
	t.Helper()
	var b bytes.Buffer
	for i := 0; i < len(lines); {
		j := i
		for j < len(lines) && lines[j].Stream == lines[i].Stream {
			j++
		}
		b.Write(writeExport(t, lines[i:j], true))
		i = j
	}
	return b.Bytes()
}

// exportOf exports a game or group of a database as tappbook export does.
func exportOf(t *testing.T, db, id string) []byte {
	t.Helper()
	file := filepath.Join(t.TempDir(), "export.jsonl")
	var so, se bytes.Buffer
	if err := run(context.Background(), []string{"export", id, "--db", db, "--out", file}, &so, &se); err != nil {
		t.Fatalf("export: %v %s", err, se.String())
	}
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// importRefused imports file into db and wants it refused with says, and
// nothing written: db as verify saw it before, or no database left behind
// when there was none.
func importRefused(t *testing.T, db string, file []byte, says string) {
	t.Helper()
	in := filepath.Join(t.TempDir(), "forged.jsonl")
	if err := os.WriteFile(in, file, 0o644); err != nil {
		t.Fatal(err)
	}
	_, statErr := os.Stat(db)
	before := ""
	if statErr == nil {
		before, _ = verifyOut(t, db)
	}
	var so, se bytes.Buffer
	err := run(context.Background(), []string{"import", "--db", db, in}, &so, &se)
	if err == nil || !strings.Contains(err.Error(), says) {
		t.Fatalf("import: %v, want a refusal saying %q", err, says)
	}
	t.Logf("refused: %v", err)
	if statErr != nil {
		if _, err := os.Stat(db); err == nil {
			t.Fatalf("a refused import left %s behind", db)
		}
		return
	}
	if after, _ := verifyOut(t, db); after != before {
		t.Fatalf("a refused import changed the database: %q, then %q", before, after)
	}
}

// firstOf is the index of the first line of type typ.
func firstOf(t *testing.T, lines []exportLine, typ string) int {
	t.Helper()
	for i, x := range lines {
		if x.Type == typ {
			return i
		}
	}
	t.Fatalf("no %s in the file", typ)
	return -1
}

// The red team's forgeries (issue 34): each an export edited and its
// hashes computed again, each refused whole by tappbook import, naming the
// event at fault and why, with nothing written.
func TestImportRefusesForgedExports(t *testing.T) {
	src := filepath.Join(t.TempDir(), "src.db")
	gid := season(t, src)
	file := exportOf(t, src, gid)
	lines := readExport(t, file)
	// forge gives the file with fn applied to a copy of the lines.
	forge := func(fn func(ls []exportLine) []exportLine) []byte {
		return rechain(t, fn(append([]exportLine(nil), lines...)))
	}
	at := func(typ string, fn func(x *exportLine)) []byte {
		return forge(func(ls []exportLine) []exportLine { fn(&ls[firstOf(t, ls, typ)]); return ls })
	}
	set := func(typ string, path []string, v any) []byte {
		return at(typ, func(x *exportLine) { x.Data = setJSON(t, x.Data, path, v) })
	}
	deal := firstOf(t, lines, "hand.recorded")
	cases := []struct {
		name, says string
		file       []byte
	}{
		{"deltas edited: Ben +300, the others -100", "deal 1 scored again gives Anna -2 units, but the file says -100", at("hand.recorded", func(x *exportLine) {
			x.Data = setJSON(t, x.Data, []string{"deltas"}, map[string]string{"Anna": "-100", "Ben": "300", "Cleo": "-100", "Dan": "-100"})
		})},
		{"points 500", "points: 500", set("hand.recorded", []string{"record", "points"}, 500)},
		{"a payment of 0.001 CHF", "amount: 0.001 has more decimal places than this group's money", set("payment.recorded", []string{"amount"}, "0.001")},
		{"a payment of 1e9999", "amount", set("payment.recorded", []string{"amount"}, "1e9999")},
		{"a group with currency XXXX", `currency: "XXXX" is not a three-letter ISO 4217 code`, set("group.started", []string{"currency"}, "XXXX")},
		{"a group with unit -1", `unit: "-1" is not an amount above 0`, set("group.started", []string{"unit"}, "-1")},
		{"an evening with unit 1e9", "unit", set("game.started", []string{"unit"}, "1e9")},
		{"a deal in 1999", "before 2020", at("hand.recorded", func(x *exportLine) { x.At = "1999-06-01T20:00:00Z" })},
		{"a deal in 2099", "a time in the future", forge(func(ls []exportLine) []exportLine {
			for i := deal; i < len(ls) && ls[i].Stream == ls[deal].Stream; i++ {
				ls[i].At = "2099-06-01T20:00:00Z"
			}
			return ls
		})},
		{"times out of order", "before the event above it", at("hand.recorded", func(x *exportLine) { x.At = lines[0].At })},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			importRefused(t, filepath.Join(t.TempDir(), "dst.db"), c.file, c.says)
		})
	}
	// The forged deal is named with its line: the group's end record
	// comes before it.
	importRefused(t, filepath.Join(t.TempDir(), "dst.db"), cases[0].file, "line "+itoa(deal+2)+" (hand.recorded, event 2 of "+lines[deal].Stream+"): event 2: deal 1 scored again")
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// An evening.joined naming an evening the database holds for another group,
// added to a group's export and chained again, is refused: the group would
// count the other group's money.
func TestImportRefusesAGroupTakingAnotherGroupsEvening(t *testing.T) {
	dst := filepath.Join(t.TempDir(), "dst.db")
	a := season(t, dst)
	theirs := readExport(t, exportOf(t, dst, a))
	joined := theirs[firstOf(t, theirs, "evening.joined")]

	other := filepath.Join(t.TempDir(), "other.db")
	b := season(t, other)
	lines := readExport(t, exportOf(t, other, b))
	end := 0
	for end < len(lines) && lines[end].Stream == b {
		end++
	}
	last := lines[end-1]
	steal := exportLine{Stream: b, Version: last.Version + 1, Batch: last.Version + 1, Type: "evening.joined",
		SchemaVersion: 1, At: last.At, Data: joined.Data}
	forged := append(append(append([]exportLine(nil), lines[:end]...), steal), lines[end:]...)
	importRefused(t, dst, rechain(t, forged), "as an evening of another group ("+a+")")

	// A game of no group playing for 1e9 a unit, or at 500 points.
	_, _, lone := exportedEvening(t)
	b1, err := os.ReadFile(lone)
	if err != nil {
		t.Fatal(err)
	}
	ls := readExport(t, b1)
	ls[0].Data = setJSON(t, ls[0].Data, []string{"unit"}, "1e9")
	importRefused(t, filepath.Join(t.TempDir(), "new.db"), rechain(t, ls), `line 1 (game.started, event 1 of `+ls[0].Stream+`): tappbook refuses it: unit: "1e9" is written with an exponent`)

	// Alone, an evening is imported only where its group lists it.
	var game string
	if err := json.Unmarshal(joined.Data, &struct {
		Game *string `json:"game"`
	}{&game}); err != nil {
		t.Fatal(err)
	}
	importRefused(t, filepath.Join(t.TempDir(), "new.db"), exportOf(t, dst, game), "which is not in this database: import the group's export")
}
