package payout

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/shopspring/decimal"

	"tappbook/internal/problem"
)

// randomRecord makes a plausible deal for a variant: a real contract, real
// players, numbers in range. Some are refused by the checks (points the
// tricks make impossible); the property test counts only accepted ones.
func randomRecord(rng *rand.Rand, s Setup) Record {
	pick := func(xs ...string) string { return xs[rng.IntN(len(xs))] }
	player := func() string { return s.Players[rng.IntN(len(s.Players))] }
	n := len(s.Players)
	switch s.Variant {
	case Zuger:
		c := pick("tapp", "solo", "super", "vice", "pass")
		if c == "pass" {
			return Record{Contract: c}
		}
		return Record{Contract: c, Declarer: player(), Points: ip(rng.IntN(121)), Tricks: ip(rng.IntN(9))}
	case OldTapp:
		c := pick("coeurfrage", "solo", "coeursolo", "pass")
		r := Record{Contract: c}
		if c == "pass" {
			return r
		}
		r.Declarer = player()
		if c != "coeurfrage" && rng.IntN(4) == 0 {
			r.Tout, r.Tricks = bp(true), ip(10+rng.IntN(2))
			return r
		}
		r.Points = ip(rng.IntN(121))
		return r
	case Matzlfangen:
		c := pick("rufen", "treiben", "neid", "durch", "trumpf-durch")
		r := Record{Contract: c, Tricks: ip(rng.IntN(9)), Kontra: ip(rng.IntN(11))}
		if c != "durch" {
			r.Matzl = pick(MatzlNone, MatzlDeclarer, MatzlDefenders)
		}
		if c == "durch" || c == "trumpf-durch" {
			r.Tricks = ip(7 + rng.IntN(2))
		} else {
			r.Points = ip(rng.IntN(131))
		}
		if c == "rufen" {
			r.Partner = player()
		} else {
			r.Declarer = player()
		}
		return r
	default:
		c := pick("suit", "bettel", "rufer", "open-bettel", "durch", "ramsch")
		g := wuerttembergGeometry(n, s.Rules.Cards, c == "suit")
		switch c {
		case "suit":
			return Record{Contract: c, Declarer: player(), Trump: pick(allSuits()...), Points: ip(rng.IntN(121))}
		case "bettel", "open-bettel":
			return Record{Contract: c, Declarer: player(), Tricks: ip(rng.IntN(2))}
		case "rufer", "durch":
			return Record{Contract: c, Declarer: player(), Trump: pick(allSuits()...), Tricks: ip(g.tricks - rng.IntN(2))}
		}
		// Ramsch: deal the tricks out, then the points, one trick's worth
		// at a time, to players who have a trick.
		r := Record{Contract: c, Ramsch: map[string]RamschScore{}}
		tricks := make([]int, n)
		for range g.tricks {
			tricks[rng.IntN(n)]++
		}
		points := make([]int, n)
		var holders []int
		for i, t := range tricks {
			if t > 0 {
				holders = append(holders, i)
			}
		}
		for _, v := range []int{11, 11, 11, 11, 10, 10, 10, 10, 4, 4, 4, 4, 3, 3, 3, 3, 2, 2, 2, 2} {
			points[holders[rng.IntN(len(holders))]] += v
		}
		for i, name := range s.Players {
			r.Ramsch[name] = RamschScore{Points: ip(points[i]), Tricks: ip(tricks[i])}
		}
		return r
	}
}

func propertySetups() []Setup {
	w3 := setupOf(Wuerttemberg, "Anna", "Ben", "Cleo")
	w4 := setupOf(Wuerttemberg, "Anna", "Ben", "Cleo", "Dan")
	w4.Rules.Cards = 32
	return []Setup{
		setupOf(Zuger, "Anna", "Ben", "Cleo", "Dan"),
		setupOf(OldTapp, "Anna", "Ben", "Cleo"),
		setupOf(Matzlfangen, "Anna", "Ben", "Cleo", "Dan"),
		w3, w4,
	}
}

// Over thousands of random plausible deals per variant: every result sums to
// zero over players and pot, and the same input always gives the same
// result.
func TestPropertyZeroSumAndDeterminism(t *testing.T) {
	for _, s := range propertySetups() {
		t.Run(fmt.Sprintf("%s-%d", s.Variant, len(s.Players)), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(1, uint64(len(s.Players))))
			accepted := 0
			for i := 0; i < 20000; i++ {
				rec := randomRecord(rng, s)
				tb := Table{Dealer: rng.IntN(len(s.Players)), Pot: decimal.NewFromInt(int64(rng.IntN(50)))}
				res, err := Score(s, tb, rec)
				if err != nil {
					if _, ok := problem.As(err); !ok {
						t.Fatalf("%+v: not an input error: %v", rec, err)
					}
					continue
				}
				accepted++
				sum := res.PotDelta
				for _, x := range res.Deltas {
					sum = sum.Add(x)
				}
				if !sum.IsZero() {
					t.Fatalf("%+v sums to %s", rec, sum)
				}
				again, err := Score(s, tb, rec)
				if err != nil || !reflect.DeepEqual(again, res) {
					t.Fatalf("%+v: a second scoring differs: %+v vs %+v (%v)", rec, again, res, err)
				}
			}
			if accepted < 5000 {
				t.Fatalf("only %d of 20000 random deals were accepted; the generator is off", accepted)
			}
		})
	}
}

// A won and a lost deal of the same value are mirror images: what the
// players receive in one they pay in the other. (Old-tapp's pot is left out:
// with no stake and an empty pot, only a lost coeurfrage touches it, and
// only from the declarer, so the opponents are compared there.)
func TestPropertyMirror(t *testing.T) {
	for _, s := range propertySetups() {
		if s.Variant == OldTapp {
			s.Rules.Stake = decimal.Zero
		}
		t.Run(fmt.Sprintf("%s-%d", s.Variant, len(s.Players)), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(2, uint64(len(s.Players))))
			type key struct {
				contract, trump, declarer, partner, value string
				tout                                      bool
			}
			won := map[key]Result{}
			lost := map[key]Result{}
			for i := 0; i < 20000; i++ {
				rec := randomRecord(rng, s)
				res, err := Score(s, Table{Dealer: 3 % len(s.Players)}, rec)
				if err != nil {
					continue
				}
				e := res.Explanation
				k := key{e.Contract, e.Trump, e.Declarer, e.Partner, e.Value.String(), e.Tout}
				switch e.Outcome {
				case Won:
					won[k] = res
				case Lost:
					lost[k] = res
				}
			}
			pairs := 0
			for k, w := range won {
				l, ok := lost[k]
				if !ok {
					continue
				}
				pairs++
				for seat := range w.Deltas {
					if s.Variant == OldTapp && s.Players[seat] == k.declarer {
						continue
					}
					if !w.Deltas[seat].Equal(l.Deltas[seat].Neg()) {
						t.Fatalf("%+v: won %v is not the mirror of lost %v", k, w.Deltas, l.Deltas)
					}
				}
			}
			if pairs < 10 {
				t.Fatalf("only %d won/lost pairs of equal value; the generator is off", pairs)
			}
		})
	}
}

// FuzzScore: any record, table and setup gives a result or an error, never
// a panic, and a result always sums to zero.
func FuzzScore(f *testing.F) {
	f.Add(uint8(0), uint8(4), uint8(1), int64(0), []byte(`{"contract":"solo","declarer":"A","points":70,"tricks":5}`))
	f.Add(uint8(1), uint8(3), uint8(0), int64(7), []byte(`{"contract":"solo","declarer":"B","tout":true,"tricks":11}`))
	f.Add(uint8(2), uint8(4), uint8(3), int64(0), []byte(`{"contract":"rufen","partner":"C","points":70,"tricks":5,"kontra":5,"matzl":"declarer"}`))
	f.Add(uint8(3), uint8(3), uint8(2), int64(0), []byte(`{"contract":"ramsch","ramsch":{"A":{"points":50,"tricks":5},"B":{"points":40,"tricks":4},"C":{"points":30,"tricks":2}}}`))
	f.Add(uint8(3), uint8(4), uint8(2), int64(0), []byte(`{"contract":"suit","declarer":"D","trump":"hearts","points":61}`))
	f.Fuzz(func(t *testing.T, variant, players, dealer uint8, pot int64, body []byte) {
		v := Variants()[int(variant)%4]
		names := []string{"A", "B", "C", "D"}[:3+int(players)%2]
		s := Setup{Variant: v, Players: names, Rules: DefaultRules(v)}
		var rec Record
		if json.Unmarshal(body, &rec) != nil {
			return
		}
		tb := Table{Dealer: int(dealer) % len(names), Pot: decimal.NewFromInt(pot)}
		res, err := Score(s, tb, rec)
		if err != nil {
			return
		}
		sum := res.PotDelta
		for _, x := range res.Deltas {
			sum = sum.Add(x)
		}
		if !sum.IsZero() {
			t.Fatalf("%s %+v sums to %s", v, rec, sum)
		}
		_ = res.Explanation.Text()
	})
}

// FuzzDecodeRules: any rules object is decoded or refused, never a panic,
// and what is decoded passes the setup check.
func FuzzDecodeRules(f *testing.F) {
	f.Add(uint8(0), []byte(`{"tapp_threshold":65}`))
	f.Add(uint8(1), []byte(`{"stake":"3","remainder":"cut"}`))
	f.Add(uint8(3), []byte(`{"cards":32,"suit_tapp":true,"values":{"suit":7}}`))
	f.Fuzz(func(t *testing.T, variant uint8, body []byte) {
		v := Variants()[int(variant)%4]
		var raw map[string]json.RawMessage
		if json.Unmarshal(body, &raw) != nil {
			return
		}
		r, err := DecodeRules(v, raw)
		if err != nil {
			return
		}
		names := []string{"A", "B", "C", "D"}
		if v == OldTapp {
			names = names[:3]
		}
		if err := (Setup{Variant: v, Players: names, Rules: r}).Check(); err != nil {
			t.Fatalf("decoded rules %s fail the setup check: %v", body, err)
		}
	})
}

// A deal whose contract the descriptor says does not depend on the pot
// scores the same, explanation and all, at any pot; one that does scores
// differently at some pot (else the re-scoring after a correction would
// walk it for nothing, or, worse, the other way round, skip a deal that
// changes).
func TestPropertyPotMatters(t *testing.T) {
	for _, s := range propertySetups() {
		t.Run(fmt.Sprintf("%s-%d", s.Variant, len(s.Players)), func(t *testing.T) {
			d := Describe(s.Variant)
			rng := rand.New(rand.NewPCG(7, uint64(len(s.Players))))
			changed := map[string]bool{}
			for range 20000 {
				rec := randomRecord(rng, s)
				dealer := rng.IntN(len(s.Players))
				a, err := Score(s, Table{Dealer: dealer, Pot: decimal.NewFromInt(int64(rng.IntN(50)))}, rec)
				if err != nil {
					continue
				}
				b, err := Score(s, Table{Dealer: dealer, Pot: decimal.NewFromInt(int64(50 + rng.IntN(1<<20)))}, rec)
				if err != nil {
					t.Fatalf("%+v scores at one pot and not at another: %v", rec, err)
				}
				same := reflect.DeepEqual(a, b)
				if !same {
					changed[rec.Contract] = true
				}
				if !same && !d.PotMatters(rec.Contract) {
					t.Fatalf("%+v: PotMatters is false, but it scores %+v at one pot and %+v at another", rec, a, b)
				}
			}
			for _, c := range d.Contracts {
				if d.PotMatters(c) && !changed[c] {
					t.Errorf("PotMatters(%q) is true, but no deal of it scored differently at another pot", c)
				}
			}
		})
	}
}

// Records and explanations write themselves byte for byte as
// encoding/json writes them: random deals of every variant, with player
// names that need escaping, and a few hand-made oddities.
func TestJSONAsEncodingJSON(t *testing.T) {
	odd := []Record{{}, {Contract: "x", Ramsch: map[string]RamschScore{}}, {Contract: "<&>", Ramsch: map[string]RamschScore{"b": {}, "a\u2028": {Points: ip(3)}}},
		{Contract: "solo", Tout: bp(false), Kontra: ip(0), Matzl: "\xff"}}
	check := func(r Record, e Explanation) {
		t.Helper()
		want, _ := json.Marshal(r)
		if got := r.AppendJSON(nil); string(got) != string(want) {
			t.Fatalf("record %+v:\n%s\nwant\n%s", r, got, want)
		}
		want, _ = json.Marshal(e)
		if got := e.AppendJSON(nil); string(got) != string(want) {
			t.Fatalf("explanation %+v:\n%s\nwant\n%s", e, got, want)
		}
	}
	for _, r := range odd {
		check(r, Explanation{Contract: r.Contract, Steps: []Step{{Kind: "x", Exact: &decimal.Zero}}, Tout: true})
	}
	check(Record{}, Explanation{Steps: []Step{}})
	for _, s := range propertySetups() {
		rng := rand.New(rand.NewPCG(11, uint64(len(s.Players))))
		s.Players = append([]string(nil), s.Players...)
		s.Players[0] = `A"n<n>a & B\o`
		s.Players[1] = "Björn"
		scored := 0
		for range 5000 {
			rec := randomRecord(rng, s)
			res, err := Score(s, Table{Dealer: rng.IntN(len(s.Players)), Pot: decimal.New(rng.Int64N(1000), -int32(rng.IntN(3)))}, rec)
			if err != nil {
				res.Explanation = Explanation{}
			} else {
				scored++
			}
			check(rec, res.Explanation)
		}
		if scored < 1000 {
			t.Fatalf("%s: only %d of 5000 random deals scored", s.Variant, scored)
		}
	}
}
