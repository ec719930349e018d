package group

import (
	"cmp"
	"slices"

	"github.com/shopspring/decimal"

	"tappbook/internal/payout"
	"tappbook/internal/tapp"
)

// ContractLine is a member's deals of one contract they declared.
type ContractLine struct {
	Variant       payout.Variant
	Contract      string
	Declared, Won int
	Money         decimal.Decimal // what those deals brought the declarer
}

// WonPercent is the share won, in percent to one place.
func (c ContractLine) WonPercent() decimal.Decimal { return percent(c.Won, c.Declared) }

// PartnerLine is a member's Rufen deals on the declaring side with one
// partner: as the one who called, or the one called.
type PartnerLine struct {
	Partner    string
	Deals, Won int
	Money      decimal.Decimal // what those deals brought the member
}

// WonPercent is the share won, in percent to one place.
func (p PartnerLine) WonPercent() decimal.Decimal { return percent(p.Won, p.Deals) }

// Pair is the money between two players over the evenings they played
// together: what the closes had B pay A, less what they had A pay B
// (negative: A paid B). The closes' transfers are money that changed
// hands; any two players' balances alone would not say who paid whom.
type Pair struct {
	A, B     string
	Evenings int // closed evenings both played
	Money    decimal.Decimal
}

// Records are the group's bests; each nil before there is one.
type Records struct {
	BestEvening *EveningRecord // the most anyone won in one evening
	BiggestDeal *DealRecord    // the most anyone won in one deal
	LongestRun  *RunRecord     // the most declared deals won in a row by one player
}

// EveningRecord is a player's evening.
type EveningRecord struct {
	Name string
	EveningMoney
}

// DealRecord is what a player won in one deal of an evening.
type DealRecord struct {
	Name string
	EveningRef
	Deal  int
	Money decimal.Decimal
}

// RunRecord is a player's run of declared deals won, from one evening to
// another (the same, mostly).
type RunRecord struct {
	Name     string
	Deals    int
	From, To EveningRef
}

// Year is the members' money in the closed evenings of one calendar year
// (UTC: the group package has no time zone of its own).
type Year struct {
	Year    int
	Players []YearLine // those who played that year, in the order of Stats.Players
}

// YearLine is one member's year.
type YearLine struct {
	Name     string
	Evenings int
	Net      decimal.Decimal
}

func percent(won, of int) decimal.Decimal {
	if of == 0 {
		return decimal.Zero
	}
	return decimal.NewFromInt(int64(won*100)).DivRound(decimal.NewFromInt(int64(of)), 1)
}

// deeper gathers, evening by evening, what Stats.Players alone does not
// say; fill puts it into the Stats once every evening is read.
type deeper struct {
	contracts map[string]map[contractKey]*ContractLine
	partners  map[string]map[string]*PartnerLine
	paid      map[[2]string]decimal.Decimal // from, to
	together  map[[2]string]int             // by names, both orders
	records   Records
	runs      map[string]*RunRecord // each player's current run
	years     []Year
	yearsBy   map[int]map[string]*YearLine
}

type contractKey struct {
	variant  payout.Variant
	contract string
}

func newDeeper() *deeper {
	return &deeper{contracts: map[string]map[contractKey]*ContractLine{}, partners: map[string]map[string]*PartnerLine{},
		paid: map[[2]string]decimal.Decimal{}, together: map[[2]string]int{}, runs: map[string]*RunRecord{}, yearsBy: map[int]map[string]*YearLine{}}
}

// evening reads a closed evening: its deals, its close, its players' money.
func (d *deeper) evening(g *tapp.State, ref EveningRef, deals []deal) {
	names := g.Setup.Players
	for _, dl := range deals {
		d.deal(g.Setup.Variant, names, ref, dl)
	}
	for _, t := range g.Closed.All() {
		k := [2]string{t.From, t.To}
		d.paid[k] = d.paid[k].Add(g.Money(t.Amount))
	}
	year := ref.Started.UTC().Year()
	lines, ok := d.yearsBy[year]
	if !ok {
		lines = map[string]*YearLine{}
		d.yearsBy[year] = lines
		d.years = append(d.years, Year{Year: year})
	}
	for seat, a := range names {
		money := g.Money(g.Balance(seat))
		if b := d.records.BestEvening; b == nil || money.GreaterThan(b.Money) {
			d.records.BestEvening = &EveningRecord{Name: a, EveningMoney: EveningMoney{EveningRef: ref, Money: money}}
		}
		l := lines[a]
		if l == nil {
			l = &YearLine{Name: a, Net: decimal.Zero}
			lines[a] = l
		}
		l.Evenings++
		l.Net = l.Net.Add(money)
		for _, b := range names[seat+1:] {
			d.together[[2]string{a, b}]++
			d.together[[2]string{b, a}]++
		}
	}
}

// deal reads one counted deal: the declarer's contract, Rufen's pair, the
// biggest win, the runs.
func (d *deeper) deal(v payout.Variant, names []string, ref EveningRef, dl deal) {
	for seat, m := range dl.money {
		if b := d.records.BiggestDeal; m.IsPositive() && (b == nil || m.GreaterThan(b.Money)) {
			d.records.BiggestDeal = &DealRecord{Name: names[seat], EveningRef: ref, Deal: dl.number, Money: m}
		}
	}
	if dl.declarer < 0 {
		return
	}
	who := names[dl.declarer]
	byContract := d.contracts[who]
	if byContract == nil {
		byContract = map[contractKey]*ContractLine{}
		d.contracts[who] = byContract
	}
	k := contractKey{v, dl.contract}
	c := byContract[k]
	if c == nil {
		c = &ContractLine{Variant: v, Contract: dl.contract, Money: decimal.Zero}
		byContract[k] = c
	}
	c.Declared++
	c.Money = c.Money.Add(dl.money[dl.declarer])
	run := d.runs[who]
	if dl.won {
		c.Won++
		if run == nil {
			run = &RunRecord{Name: who, From: ref}
			d.runs[who] = run
		}
		run.Deals++
		run.To = ref
		if best := d.records.LongestRun; best == nil || run.Deals > best.Deals {
			kept := *run
			d.records.LongestRun = &kept
		}
	} else {
		delete(d.runs, who)
	}
	if dl.contract == "rufen" && dl.partner >= 0 {
		d.partnered(names[dl.declarer], names[dl.partner], dl.won, dl.money[dl.declarer])
		d.partnered(names[dl.partner], names[dl.declarer], dl.won, dl.money[dl.partner])
	}
}

func (d *deeper) partnered(who, with string, won bool, money decimal.Decimal) {
	m := d.partners[who]
	if m == nil {
		m = map[string]*PartnerLine{}
		d.partners[who] = m
	}
	p := m[with]
	if p == nil {
		p = &PartnerLine{Partner: with, Money: decimal.Zero}
		m[with] = p
	}
	p.Deals++
	if won {
		p.Won++
	}
	p.Money = p.Money.Add(money)
}

// fill puts what was gathered into st, in the order of st.Players.
func (d *deeper) fill(st *Stats) {
	order := map[string]int{}
	for i, p := range st.Players {
		order[p.Name] = i
	}
	variants := payout.Variants()
	for i := range st.Players {
		p := &st.Players[i]
		for _, c := range d.contracts[p.Name] {
			p.Contracts = append(p.Contracts, *c)
		}
		slices.SortFunc(p.Contracts, func(a, b ContractLine) int {
			return cmp.Or(slices.Index(variants, a.Variant)-slices.Index(variants, b.Variant), b.Declared-a.Declared, cmp.Compare(a.Contract, b.Contract))
		})
		for _, l := range d.partners[p.Name] {
			p.Partners = append(p.Partners, *l)
		}
		slices.SortFunc(p.Partners, func(a, b PartnerLine) int {
			return cmp.Or(b.Deals-a.Deals, order[a.Partner]-order[b.Partner])
		})
	}
	for i, a := range st.Players {
		for _, b := range st.Players[i+1:] {
			n := d.together[[2]string{a.Name, b.Name}]
			if n == 0 {
				continue
			}
			money := d.paid[[2]string{b.Name, a.Name}].Sub(d.paid[[2]string{a.Name, b.Name}])
			st.Pairs = append(st.Pairs, Pair{A: a.Name, B: b.Name, Evenings: n, Money: money})
		}
	}
	st.Records = d.records
	for _, y := range d.years {
		for _, p := range st.Players {
			if l := d.yearsBy[y.Year][p.Name]; l != nil {
				y.Players = append(y.Players, *l)
			}
		}
		st.Years = append(st.Years, y)
	}
}
