package group

import (
	"slices"
	"time"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/shopspring/decimal"

	"tappbook/internal/payout"
	"tappbook/internal/tapp"
)

// Stats are the statistics of the group's closed evenings: per member,
// overall and per variant, and each member's running total over the
// evenings.
type Stats struct {
	Players  []PlayerStats // the members in the order they joined
	Evenings []EveningRef  // the closed evenings, oldest first: the chart's x axis
	Pairs    []Pair        // money between each two players, in the order of Players
	Records  Records
	Years    []Year // oldest first
}

// PlayerStats is one member's statistics.
type PlayerStats struct {
	Name string
	Line
	Variants []VariantLine // the variants the member played, in payout.Variants order
	// Running is the member's total money after each of Stats.Evenings
	// (flat over an evening they did not play).
	Running []decimal.Decimal
	// Contracts are the contracts the member declared, by variant in
	// payout.Variants order, then most declared first.
	Contracts []ContractLine
	// Partners are the members they were on the declaring side with in
	// Rufen, most deals first.
	Partners []PartnerLine
}

// VariantLine is a member's statistics in one variant.
type VariantLine struct {
	Variant payout.Variant
	Line
}

// Line counts a member's evenings.
type Line struct {
	Evenings    int
	Deals       int             // the counted deals of those evenings: every seated player plays each
	Declared    int             // deals the member declared (played a contract)
	DeclaredWon int             // of those, the ones the declarer's side won
	Won         decimal.Decimal // money of the evenings that ended above zero
	Lost        decimal.Decimal // money of the evenings that ended below zero, as a positive amount
	Best, Worst *EveningMoney   // nil before the first evening
}

// Net is what the member won less what they lost.
func (l Line) Net() decimal.Decimal { return l.Won.Sub(l.Lost) }

// WonPercent is the share of declared deals won, in percent to one place;
// false when the member declared none.
func (l Line) WonPercent() (decimal.Decimal, bool) {
	if l.Declared == 0 {
		return decimal.Decimal{}, false
	}
	return decimal.NewFromInt(int64(l.DeclaredWon*100)).DivRound(decimal.NewFromInt(int64(l.Declared)), 1), true
}

// EveningRef names an evening.
type EveningRef struct {
	Game, ReadID string
	Variant      payout.Variant
	Started      time.Time
}

// EveningMoney is what a member ended an evening with.
type EveningMoney struct {
	EveningRef
	Money decimal.Decimal
}

// Stats computes the statistics: games is aligned with s.Evenings(), nil
// for an evening whose game never started. Only closed evenings count, as
// in the tab.
func (s *State) Stats(games []*tapp.State) Stats {
	st := Stats{}
	more := newDeeper()
	index := map[string]int{}
	add := func(name string) *PlayerStats {
		i, ok := index[name]
		if !ok {
			i = len(st.Players)
			index[name] = i
			st.Players = append(st.Players, PlayerStats{Name: name, Line: newLine()})
			// A player the group does not list (its own evenings never
			// have one) is shown from the evening they first played.
			st.Players[i].Running = make([]decimal.Decimal, len(st.Evenings))
			for k := range st.Players[i].Running {
				st.Players[i].Running[k] = decimal.Zero
			}
		}
		return &st.Players[i]
	}
	for _, m := range s.members {
		add(m.Name)
	}
	for i, g := range games {
		if g == nil || g.Closed == nil {
			continue
		}
		if playedNothing(g) {
			continue
		}
		deals := dealsOf(g)
		ev := s.evenings[i]
		ref := EveningRef{Game: ev.Game, ReadID: ev.ReadID, Variant: g.Setup.Variant, Started: g.StartedAt}
		for _, name := range g.Setup.Players {
			add(name)
		}
		st.Evenings = append(st.Evenings, ref)
		more.evening(g, ref, deals)
		for k := range st.Players {
			p := &st.Players[k]
			total := decimal.Zero
			if n := len(p.Running); n > 0 {
				total = p.Running[n-1]
			}
			seat := slices.Index(g.Setup.Players, p.Name)
			if seat >= 0 {
				money := g.Money(g.Balance(seat))
				p.Line.count(ref, money, seat, deals)
				p.variant(g.Setup.Variant).count(ref, money, seat, deals)
				total = total.Add(money)
			}
			p.Running = append(p.Running, total)
		}
	}
	more.fill(&st)
	for k := range st.Players {
		p := &st.Players[k]
		slices.SortStableFunc(p.Variants, func(a, b VariantLine) int {
			return slices.Index(payout.Variants(), a.Variant) - slices.Index(payout.Variants(), b.Variant)
		})
	}
	return st
}

// playedNothing says an evening counted no deal and moved no money: one
// started by mistake and closed empty, which is no evening of the tab or
// of anyone's statistics.
func playedNothing(g *tapp.State) bool {
	for _, h := range g.Hands() {
		if !h.Voided {
			return false
		}
	}
	for seat := range g.Setup.Players {
		if !g.Balance(seat).IsZero() {
			return false
		}
	}
	return true
}

func newLine() Line { return Line{Won: decimal.Zero, Lost: decimal.Zero} }

// variant gives the member's line for a variant, made on first use.
func (p *PlayerStats) variant(v payout.Variant) *Line {
	for i := range p.Variants {
		if p.Variants[i].Variant == v {
			return &p.Variants[i].Line
		}
	}
	p.Variants = append(p.Variants, VariantLine{Variant: v, Line: newLine()})
	return &p.Variants[len(p.Variants)-1].Line
}

// deal is what the statistics read of a counted deal: who declared, if
// anyone, and whether the declarer's side won; its contract, the called
// partner (Rufen), and what it moved, in money.
type deal struct {
	number   int
	declarer int // seat, or -1 when nobody declared (a pass, a Ramsch)
	partner  int // seat of the called partner, or -1
	contract string
	won      bool
	money    []decimal.Decimal // by seat
}

func dealsOf(g *tapp.State) []deal {
	var out []deal
	for _, h := range g.Hands() {
		if h.Voided {
			continue
		}
		ex := declaredOutcome(h.Result().ExplanationJSON())
		if ex.Outcome == payout.Cancelled {
			// Won or lost at the table all the same: the matzl cancelled
			// the payments, not the result.
			ex.Outcome = h.Result().Explanation().AtTheTable()
		}
		d := deal{number: h.Number, declarer: g.Setup.IndexOf(ex.Declarer), partner: g.Setup.IndexOf(ex.Partner), contract: ex.Contract,
			won: ex.Outcome == payout.Won}
		for _, u := range h.Result().Deltas() {
			d.money = append(d.money, g.Money(u))
		}
		out = append(out, d)
	}
	return out
}

// count adds an evening the member played in seat, ending with money.
func (l *Line) count(ref EveningRef, money decimal.Decimal, seat int, deals []deal) {
	l.Evenings++
	l.Deals += len(deals)
	for _, d := range deals {
		if d.declarer == seat && seat >= 0 {
			l.Declared++
			if d.won {
				l.DeclaredWon++
			}
		}
	}
	switch {
	case money.IsPositive():
		l.Won = l.Won.Add(money)
	case money.IsNegative():
		l.Lost = l.Lost.Sub(money)
	}
	em := &EveningMoney{EveningRef: ref, Money: money}
	if l.Best == nil || money.GreaterThan(l.Best.Money) {
		l.Best = em
	}
	if l.Worst == nil || money.LessThan(l.Worst.Money) {
		l.Worst = em
	}
}

// declaredOutcome reads who declared a deal and how it ended from its
// stored explanation, and nothing else of it: a season's statistics read
// tens of thousands of them, and decoding each whole (its steps, amounts
// and names) was nearly all of their time.
func declaredOutcome(raw []byte) declared {
	var ex declared
	if len(raw) > 0 {
		_ = jsonv2.Unmarshal(raw, &ex) // a stored explanation always decodes; an empty one names nobody
	}
	return ex
}

// declared is what the statistics read of a stored explanation.
type declared struct {
	Contract string         `json:"contract"`
	Declarer string         `json:"declarer"`
	Partner  string         `json:"partner"`
	Outcome  payout.Outcome `json:"outcome"`
}
