package web

import (
	"net/http"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/shopspring/decimal"

	"tappbook/internal/group"
	"tappbook/internal/payout"
)

// The group's statistics, as GET /api/groups/{id}/stats (and through its
// read-only link) gives them.

type lineJSON struct {
	Evenings    int               `json:"evenings"`
	Deals       int               `json:"deals"`
	Declared    int               `json:"declared"`
	DeclaredWon int               `json:"declared_won"`
	WonPercent  *string           `json:"won_percent"` // null when nothing was declared
	MoneyWon    string            `json:"money_won"`
	MoneyLost   string            `json:"money_lost"` // a positive amount
	MoneyNet    string            `json:"money_net"`
	Best        *eveningMoneyJSON `json:"best_evening"`
	Worst       *eveningMoneyJSON `json:"worst_evening"`
}

type eveningMoneyJSON struct {
	ID      string         `json:"id,omitempty"`
	ReadID  string         `json:"read_id"`
	Variant payout.Variant `json:"variant"`
	Started time.Time      `json:"started"`
	Money   string         `json:"money"`
}

type playerStatsJSON struct {
	lineJSON
	Variants  map[payout.Variant]lineJSON `json:"variants"`
	Running   []string                    `json:"running"`   // the total after each of the stats' evenings
	Contracts []contractJSON              `json:"contracts"` // an addition (#36)
	Partners  []partnerJSON               `json:"partners"`  // an addition (#36)
}

type contractJSON struct {
	Variant    payout.Variant `json:"variant"`
	Contract   string         `json:"contract"`
	Declared   int            `json:"declared"`
	Won        int            `json:"won"`
	WonPercent string         `json:"won_percent"`
	Money      string         `json:"money"`
}

type partnerJSON struct {
	Partner    string `json:"partner"`
	Deals      int    `json:"deals"`
	Won        int    `json:"won"`
	WonPercent string `json:"won_percent"`
	Money      string `json:"money"`
}

type pairJSON struct {
	A        string `json:"a"`
	B        string `json:"b"`
	Evenings int    `json:"evenings"`
	Money    string `json:"money"` // what b paid a, less what a paid b, at the closes
}

type recordsJSON struct {
	BestEvening *eveningRecordJSON `json:"best_evening"`
	BiggestDeal *dealRecordJSON    `json:"biggest_deal"`
	LongestRun  *runRecordJSON     `json:"longest_run"`
}

type eveningRecordJSON struct {
	Player string `json:"player"`
	eveningMoneyJSON
}

type dealRecordJSON struct {
	Player string `json:"player"`
	eveningRefJSON
	Hand  int    `json:"hand"`
	Money string `json:"money"`
}

type runRecordJSON struct {
	Player string         `json:"player"`
	Hands  int            `json:"hands"`
	From   eveningRefJSON `json:"from"`
	To     eveningRefJSON `json:"to"`
}

type yearJSON struct {
	Year    int                     `json:"year"`
	Players map[string]yearLineJSON `json:"players"`
}

type yearLineJSON struct {
	Evenings int    `json:"evenings"`
	MoneyNet string `json:"money_net"`
}

type statsJSON struct {
	Evenings   []eveningRefJSON           `json:"evenings"` // the closed evenings, oldest first
	Players    map[string]playerStatsJSON `json:"players"`
	Members    []string                   `json:"members"`      // the players in the order they joined
	HeadToHead []pairJSON                 `json:"head_to_head"` // an addition (#36)
	Records    recordsJSON                `json:"records"`      // an addition (#36)
	Years      []yearJSON                 `json:"years"`        // an addition (#36)
}

type eveningRefJSON struct {
	ID      string         `json:"id,omitempty"`
	ReadID  string         `json:"read_id"`
	Variant payout.Variant `json:"variant"`
	Started time.Time      `json:"started"`
}

func statsOut(st *group.State, s group.Stats, readOnly bool) statsJSON {
	places := st.Places()
	money := func(d decimal.Decimal) string { return d.StringFixed(places) }
	id := func(game string) string {
		if readOnly {
			return ""
		}
		return game
	}
	em := func(e *group.EveningMoney) *eveningMoneyJSON {
		if e == nil {
			return nil
		}
		return &eveningMoneyJSON{ID: id(e.Game), ReadID: e.ReadID, Variant: e.Variant, Started: e.Started, Money: money(e.Money)}
	}
	line := func(l group.Line) lineJSON {
		out := lineJSON{Evenings: l.Evenings, Deals: l.Deals, Declared: l.Declared, DeclaredWon: l.DeclaredWon,
			MoneyWon: money(l.Won), MoneyLost: money(l.Lost), MoneyNet: money(l.Net()), Best: em(l.Best), Worst: em(l.Worst)}
		if pct, ok := l.WonPercent(); ok {
			s := pct.StringFixed(1)
			out.WonPercent = &s
		}
		return out
	}
	out := statsJSON{Evenings: []eveningRefJSON{}, Players: map[string]playerStatsJSON{}, Members: []string{}}
	for _, e := range s.Evenings {
		out.Evenings = append(out.Evenings, eveningRefJSON{ID: id(e.Game), ReadID: e.ReadID, Variant: e.Variant, Started: e.Started})
	}
	for _, p := range s.Players {
		ps := playerStatsJSON{lineJSON: line(p.Line), Variants: map[payout.Variant]lineJSON{}, Running: []string{}}
		for _, v := range p.Variants {
			ps.Variants[v.Variant] = line(v.Line)
		}
		for _, r := range p.Running {
			ps.Running = append(ps.Running, money(r))
		}
		ps.Contracts, ps.Partners = contractsOut(p.Contracts, money), partnersOut(p.Partners, money)
		out.Players[p.Name] = ps
		out.Members = append(out.Members, p.Name)
	}
	ref := func(e group.EveningRef) eveningRefJSON {
		return eveningRefJSON{ID: id(e.Game), ReadID: e.ReadID, Variant: e.Variant, Started: e.Started}
	}
	out.HeadToHead, out.Years = pairsOut(s.Pairs, money), yearsOut(s.Years, money)
	if r := s.Records.BestEvening; r != nil {
		out.Records.BestEvening = &eveningRecordJSON{Player: r.Name, eveningMoneyJSON: *em(&r.EveningMoney)}
	}
	if r := s.Records.BiggestDeal; r != nil {
		out.Records.BiggestDeal = &dealRecordJSON{Player: r.Name, eveningRefJSON: ref(r.EveningRef), Hand: r.Deal, Money: money(r.Money)}
	}
	if r := s.Records.LongestRun; r != nil {
		out.Records.LongestRun = &runRecordJSON{Player: r.Name, Hands: r.Deals, From: ref(r.From), To: ref(r.To)}
	}
	return out
}

func contractsOut(cs []group.ContractLine, money func(decimal.Decimal) string) []contractJSON {
	out := []contractJSON{}
	for _, c := range cs {
		out = append(out, contractJSON{Variant: c.Variant, Contract: c.Contract, Declared: c.Declared, Won: c.Won,
			WonPercent: c.WonPercent().StringFixed(1), Money: money(c.Money)})
	}
	return out
}

func partnersOut(ps []group.PartnerLine, money func(decimal.Decimal) string) []partnerJSON {
	out := []partnerJSON{}
	for _, p := range ps {
		out = append(out, partnerJSON{Partner: p.Partner, Deals: p.Deals, Won: p.Won, WonPercent: p.WonPercent().StringFixed(1), Money: money(p.Money)})
	}
	return out
}

func pairsOut(ps []group.Pair, money func(decimal.Decimal) string) []pairJSON {
	out := []pairJSON{}
	for _, p := range ps {
		out = append(out, pairJSON{A: p.A, B: p.B, Evenings: p.Evenings, Money: money(p.Money)})
	}
	return out
}

func yearsOut(ys []group.Year, money func(decimal.Decimal) string) []yearJSON {
	out := []yearJSON{}
	for _, y := range ys {
		yj := yearJSON{Year: y.Year, Players: map[string]yearLineJSON{}}
		for _, l := range y.Players {
			yj.Players[l.Name] = yearLineJSON{Evenings: l.Evenings, MoneyNet: money(l.Net)}
		}
		out = append(out, yj)
	}
	return out
}

func (a api) stats(c echo.Context) error {
	v, err := a.groups().View(c.Request().Context(), groupID(c))
	if err != nil {
		return err
	}
	return writeJSON(c, http.StatusOK, statsOut(v.Group, v.Group.Stats(v.Games), readOnly(c)))
}
