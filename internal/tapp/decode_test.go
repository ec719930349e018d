package tapp

import (
	"encoding/json"
	"math/rand/v2"
	"slices"
	"testing"
	"unicode/utf8"

	"github.com/shopspring/decimal"

	"tappbook/internal/payout"
)

// randomRecorded makes stored hand.recorded payloads the way the service
// does, from random deals the payout engine accepts, in every variant: all
// the fields a record can carry (trump, partner, tout, kontra, matzl,
// Ramsch) and amounts with decimal places.
func randomRecorded(t testing.TB, n int) [][]byte {
	rng := rand.New(rand.NewPCG(7, 11))
	var out [][]byte
	for len(out) < n {
		v := payout.Variants()[rng.IntN(4)]
		players := []string{"Anna", "Ben", "Cleo", "Dan"}
		if v == payout.OldTapp || (v == payout.Wuerttemberg && rng.IntN(2) == 0) {
			players = players[:3]
		}
		setup := payout.Setup{Variant: v, Players: players, Rules: payout.DefaultRules(v)}
		contracts := payout.Contracts(v)
		rec := payout.Record{Contract: contracts[rng.IntN(len(contracts))]}
		pick := func() string { return players[rng.IntN(len(players))] }
		opt := func(max int) *int { x := rng.IntN(max + 1); return &x }
		if rng.IntN(5) > 0 {
			rec.Declarer = pick()
		}
		if rng.IntN(3) == 0 {
			rec.Partner = pick()
		}
		if rng.IntN(3) == 0 {
			rec.Trump = []string{"clubs", "spades", "hearts", "diamonds"}[rng.IntN(4)]
		}
		if rng.IntN(4) > 0 {
			rec.Points = opt(payout.TotalPoints(v))
		}
		if rng.IntN(4) > 0 {
			rec.Tricks = opt(payout.TricksPerDeal(setup))
		}
		if rng.IntN(4) == 0 {
			b := rng.IntN(2) == 0
			rec.Tout = &b
		}
		if v == payout.Matzlfangen {
			rec.Kontra = opt(10)
			rec.Matzl = []string{"", "none", "declarer", "defenders"}[rng.IntN(4)]
		}
		if rec.Contract == "ramsch" {
			rec.Declarer, rec.Points, rec.Tricks = "", nil, nil
			rec.Ramsch = map[string]payout.RamschScore{}
			left, tricks := payout.TotalPoints(v), payout.TricksPerDeal(setup)
			for i, p := range players {
				pts, tr := left, tricks
				if i < len(players)-1 {
					pts, tr = rng.IntN(left+1), rng.IntN(tricks+1)
				}
				left, tricks = left-pts, tricks-tr
				rec.Ramsch[p] = payout.RamschScore{Points: &pts, Tricks: &tr}
			}
		}
		pot := decimal.New(int64(rng.IntN(20)), 0)
		res, err := payout.Score(setup, payout.Table{Dealer: rng.IntN(len(players)), Pot: pot}, rec)
		if err != nil {
			continue
		}
		scored, err := NewScored(setup, res)
		if err != nil {
			t.Fatal(err)
		}
		// Amounts with places, as a future ruleset or an import may hold.
		if rng.IntN(4) == 0 {
			scored.PotDelta = decimal.RequireFromString("0.50")
		}
		data, err := json.Marshal(HandRecorded{Hand: 1 + rng.IntN(500), Dealer: pick(), Record: rec, PotAfter: pot.Add(res.PotDelta), Scored: scored})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, data)
	}
	return out
}

// The fold's own decoders of hand.recorded, the byte scanner and the token
// decoder it falls back on, each read exactly what encoding/json reads from
// the stored form; the scanner reads every deal but a Ramsch itself.
func TestDecodeRecordedMatchesEncodingJSON(t *testing.T) {
	seen := map[string]int{}
	players := []string{"Anna", "Ben", "Cleo", "Dan"}
	scanned, ramsch := 0, 0
	for _, data := range randomRecorded(t, 3000) {
		var want, got, tokens, fast HandRecorded
		if err := json.Unmarshal(data, &want); err != nil {
			t.Fatal(err)
		}
		if err := decodeRecorded(data, &got, players); err != nil {
			t.Fatalf("%s: %v", data, err)
		}
		if err := decodeRecordedTokens(data, &tokens); err != nil {
			t.Fatalf("%s: %v", data, err)
		}
		w, _ := json.Marshal(want)
		for how, d := range map[string]HandRecorded{"decodeRecorded": got, "the token decoder": tokens} {
			if g, _ := json.Marshal(d); string(w) != string(g) {
				t.Fatalf("%s decoded differently:\n got %s\nwant %s\nfrom %s", how, g, w, data)
			}
		}
		if scanRecorded(data, &fast, players) {
			scanned++
			if g, _ := json.Marshal(fast); string(w) != string(g) {
				t.Fatalf("the scanner decoded differently:\n got %s\nwant %s\nfrom %s", g, w, data)
			}
			for name := range fast.Deltas {
				if !slices.Contains(players, name) {
					t.Fatalf("the scanner read player %q", name)
				}
			}
		}
		if want.Record.Ramsch != nil {
			ramsch++
		}
		r := got.Record
		for field, has := range map[string]bool{"ramsch": r.Ramsch != nil, "tout": r.Tout != nil, "kontra": r.Kontra != nil,
			"partner": r.Partner != "", "trump": r.Trump != "", "matzl": r.Matzl != "", "places": got.PotDelta.Exponent() < 0} {
			if has {
				seen[field]++
			}
		}
	}
	if len(seen) < 7 {
		t.Fatalf("the deals cover only %v", seen)
	}
	if scanned != 3000-ramsch {
		t.Fatalf("the scanner read %d of the %d deals that are not a Ramsch", scanned, 3000-ramsch)
	}
}

// Whatever the scanner does not read exactly as stored, it leaves to the
// token decoder: escaped names, floats, nulls, and broken JSON.
func TestScanRecordedGivesUp(t *testing.T) {
	players := []string{"Anna", "Ben"}
	for _, in := range []string{
		`{"hand":1,"dealer":"An\u006ea"}`, `{"hand":1.5}`, `{"hand":1e2}`, `{"hand":null}`,
		`{"record":{"points":null}}`, `{"record":{"ramsch":{}}}`, `{"deltas":{"Anna":2}}`,
		`{"deltas":{"Anna":"x"}}`, `{"text":"a\nb"}`, `{"hand":1`, `{"hand":1}x`, `{"explanation":{"a":[1,}`,
		"{\"text\":\"\xff\"}", `{"hand":01}`, `[]`,
	} {
		var p HandRecorded
		if scanRecorded([]byte(in), &p, players) {
			t.Errorf("the scanner read %s as %+v", in, p)
		}
	}
	var p HandRecorded
	in := `{ "hand" : 2 , "future" : {"a":[1,"}",{"b":null}]}, "deltas" : {"Anna":"-600","Ben":"600"}, "explanation":{"x":"]"} }`
	if !scanRecorded([]byte(in), &p, players) || p.Hand != 2 || !p.Deltas["Ben"].Equal(decimal.New(600, 0)) || string(p.Explanation) != `{"x":"]"}` {
		t.Fatalf("the scanner read %s as %+v", in, p)
	}
}

// Small whole amounts come from the shared table, the rest are made; sums
// are exact either way.
func TestUnits(t *testing.T) {
	for _, c := range []struct{ a, b, want string }{
		{"3", "-5", "-2"}, {"512", "1", "513"}, {"-512", "-1", "-513"}, {"99999999999999999", "1", "100000000000000000"},
		{"0.50", "1", "1.5"}, {"123456789012345678901", "-1", "123456789012345678900"}, {"0", "0", "0"},
	} {
		got := addUnits(decimal.RequireFromString(c.a), decimal.RequireFromString(c.b))
		if !got.Equal(decimal.RequireFromString(c.want)) {
			t.Errorf("%s + %s = %s, want %s", c.a, c.b, got, c.want)
		}
	}
	for _, n := range []int64{-513, -512, 0, 7, 512, 513, 1 << 40} {
		if got := wholeUnits(n); got.String() != decimal.New(n, 0).String() {
			t.Errorf("wholeUnits(%d) = %s", n, got)
		}
	}
}

// A member the decoder does not know is skipped, as encoding/json skips it,
// and a payload of the wrong shape is an error, not a wrong deal.
func TestDecodeRecordedUnknownAndBroken(t *testing.T) {
	var p HandRecorded
	if err := decodeRecorded([]byte(`{"hand":3,"future":{"a":[1,2]},"record":{"contract":"tapp","new":true},"deltas":{"Anna":"1","Ben":"-1"}}`), &p, nil); err != nil {
		t.Fatal(err)
	}
	if p.Hand != 3 || p.Record.Contract != "tapp" || !p.Deltas["Ben"].Equal(decimal.New(-1, 0)) {
		t.Fatalf("decoded %+v", p)
	}
	for _, bad := range []string{`[]`, `{"hand":"3"}`, `{"deltas":{"Anna":true}}`, `{"deltas":{"Anna":"x"}}`, `{"record":{"points":"9"}}`, `{"hand":3`} {
		if err := decodeRecorded([]byte(bad), &p, nil); err == nil {
			t.Errorf("%s decoded without an error", bad)
		}
	}
}

// Whatever bytes it is given (an imported file is outside input), the
// scanner never fails the fold: it reads a payload or gives up, and a
// valid payload it reads, it reads as the token decoder does.
func FuzzScanRecorded(f *testing.F) {
	for _, data := range randomRecorded(f, 20) {
		f.Add(data)
	}
	f.Add([]byte(`{"hand":1,"future":[{"a":"}"}],"deltas":{"Anna":"-2"}}`))
	players := []string{"Anna", "Ben", "Cleo", "Dan"}
	f.Fuzz(func(t *testing.T, data []byte) {
		var fast, tokens HandRecorded
		// The token decoder refuses invalid UTF-8 anywhere, encoding/json
		// (which wrote every stored payload) and the scanner only where they
		// read; such bytes are no payload either ever wrote.
		if !scanRecorded(data, &fast, players) || !json.Valid(data) || !utf8.Valid(data) {
			return
		}
		if err := decodeRecordedTokens(data, &tokens); err != nil {
			t.Fatalf("the scanner read %s, the token decoder refused it: %v", data, err)
		}
		f, _ := json.Marshal(fast)
		k, _ := json.Marshal(tokens)
		if string(f) != string(k) {
			t.Fatalf("from %s\nthe scanner read %s\nthe token decoder %s", data, f, k)
		}
	})
}

// keptAsRead checks that the members a deal read by DecodeForFold keeps
// are those keep finds in its payload.
func keptAsRead(t *testing.T, data []byte, d dealRead) {
	t.Helper()
	var want, got [keptCount]member
	n, size, ok := stored(data).keptMembers(&want)
	kept := members(data, d.kept[:d.nKept], &got)
	if w, g := appendMembers(nil, want[:n]), appendMembers(nil, kept); !ok || string(w) != string(g) || membersSize(kept) != size || len(g) != size {
		t.Fatalf("%s: a deal read keeps %s (%d bytes), keep %s (%d)", data, g, membersSize(kept), w, size)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// What DecodeForFold reads of a recorded deal is what Decode reads of it,
// as far as the fold reads (number, dealer, contract, amounts by seat), and
// it makes nothing else; a Ramsch, or a name not at the table, it reads as
// Decode does.
func TestDecodeForFold(t *testing.T) {
	players := []string{"Anna", "Ben", "Cleo", "Dan"}
	read := 0
	for _, data := range randomRecorded(t, 3000) {
		full, err := Decode(TypeHandRecorded, data, players)
		if err != nil {
			t.Fatal(err)
		}
		lean, err := DecodeForFold(TypeHandRecorded, data, players)
		if err != nil {
			t.Fatal(err)
		}
		f := full.(HandRecorded)
		l, ok := lean.(dealRead)
		if !ok {
			if f.Record.Ramsch == nil {
				t.Fatalf("%s: DecodeForFold gave a %T", data, lean)
			}
			continue // read by the token decoder, in full
		}
		read++
		if f.Hand != l.hand || f.Dealer != l.dealer || f.Record.Contract != l.contract || !f.PotDelta.Equal(l.potDelta) {
			t.Fatalf("%s:\nfull %+v\nlean %+v", data, f, l)
		}
		for seat, name := range players {
			if !l.deltas[seat].Equal(f.Deltas[name]) {
				t.Fatalf("%s: %s's delta %s, lean %s", data, name, f.Deltas[name], l.deltas[seat])
			}
		}
		keptAsRead(t, data, l)
	}
	twice := []byte(`{"hand":1,"dealer":"Anna","text":"a","deltas":{"Anna":"1","Ben":"-1"},"text":"b","record":{"contract":"tapp"},"pot_delta":"0"}`)
	if l, ok := must(DecodeForFold(TypeHandRecorded, twice, players)).(dealRead); !ok || l.contract != "tapp" {
		t.Fatalf("%s read as %+v", twice, l)
	} else {
		keptAsRead(t, twice, l)
	}
	if read == 0 {
		t.Fatal("DecodeForFold read no deal itself")
	}
	other, err := DecodeForFold(TypeHandRecorded, []byte(`{"hand":1,"dealer":"Anna","deltas":{"Anna":"1","Eve":"-1"},"pot_delta":"0"}`), players)
	if h, ok := other.(HandRecorded); err != nil || !ok || !h.Deltas["Eve"].Equal(decimal.New(-1, 0)) {
		t.Fatalf("a deal naming Eve, not at the table, was read as %+v, %v", other, err)
	}
}
