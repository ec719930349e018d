package web

import (
	"encoding/json"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/shopspring/decimal"

	"tappbook/internal/events"
	"tappbook/internal/payout"
	"tappbook/internal/tapp"
)

// The reading endpoints of api.md: the ledger, the deals, the events, who
// pays whom; and closing, which answers with the settlement.

type ledgerJSON struct {
	Hands    int                        `json:"hands"`
	Counted  int                        `json:"counted"`
	Dealer   string                     `json:"dealer"`
	Forehand string                     `json:"forehand"`
	Balances map[string]decimal.Decimal `json:"balances"`
	Pot      decimal.Decimal            `json:"pot"`
	Money    map[string]string          `json:"money"`
	PotMoney string                     `json:"pot_money"`
	Unit     string                     `json:"unit"`
	Currency string                     `json:"currency"`
	Closed   bool                       `json:"closed"`
	End      *endJSON                   `json:"end,omitempty"`
}

func (a api) ledger(c echo.Context) error {
	return a.viewAsOf(c, func(g *tapp.State) error {
		return writeJSON(c, http.StatusOK, ledgerOut(g))
	})
}

// ledgerOut is the ledger of the game as g holds it.
func ledgerOut(g *tapp.State) ledgerJSON {
	next := g.NextDealer()
	out := ledgerJSON{Hands: len(g.Hands()), Counted: g.Counted(), Dealer: g.Setup.Players[next],
		Forehand: g.Setup.Players[(next+1)%len(g.Setup.Players)],
		Pot:      g.Pot(), PotMoney: g.MoneyText(g.Pot()), Unit: g.UnitText, Currency: g.Currency, Closed: g.Closed != nil, End: endOut(g)}
	out.Balances, out.Money = balancesOut(g, g.Balances())
	return out
}

// unitsByName keys amounts by seat with the players' names.
func unitsByName(g *tapp.State, bySeat []decimal.Decimal) map[string]decimal.Decimal {
	out := make(map[string]decimal.Decimal, len(bySeat))
	for seat, d := range bySeat {
		out[g.Setup.Players[seat]] = d
	}
	return out
}

func balancesOut(g *tapp.State, balances []decimal.Decimal) (map[string]decimal.Decimal, map[string]string) {
	units := make(map[string]decimal.Decimal, len(balances))
	money := make(map[string]string, len(balances))
	for seat, b := range balances {
		name := g.Setup.Players[seat]
		units[name] = b
		money[name] = g.MoneyText(b)
	}
	return units, money
}

type revisionJSON struct {
	Kind        string                     `json:"kind"`
	At          time.Time                  `json:"at"`
	Reason      string                     `json:"reason,omitempty"`
	Record      *payout.Record             `json:"record,omitempty"`
	Deltas      map[string]decimal.Decimal `json:"deltas,omitempty"`
	PotDelta    *decimal.Decimal           `json:"pot_delta,omitempty"`
	Explanation string                     `json:"explanation,omitempty"`
	Cause       int                        `json:"cause,omitempty"`
}

type handJSON struct {
	Hand        int                        `json:"hand"`
	Dealer      string                     `json:"dealer"`
	Record      payout.Record              `json:"record"`
	Deltas      map[string]decimal.Decimal `json:"deltas"`
	PotDelta    decimal.Decimal            `json:"pot_delta"`
	Pot         decimal.Decimal            `json:"pot"` // after the deal, as the deals stand now (an addition)
	Voided      bool                       `json:"voided"`
	VoidReason  string                     `json:"void_reason,omitempty"`
	Revisions   int                        `json:"revisions"`
	Changes     int                        `json:"changes"` // revisions and voids: what expected_changes checks
	Explanation string                     `json:"explanation"`
	Detail      json.RawMessage            `json:"detail"`
	History     []revisionJSON             `json:"history"`
}

func (a api) listHands(c echo.Context) error {
	return a.viewAsOf(c, func(g *tapp.State) error {
		out := make([]handJSON, 0, len(g.Hands()))
		pots := g.PotsAfter()
		for i, h := range g.Hands() {
			// A voided deal moves nothing (api.md: deltas are the change
			// from this deal), so the deltas add up to the ledger; what it
			// moved before is in its history.
			res := h.Result()
			deltas, pot := h.Moves()
			hj := handJSON{Hand: h.Number, Dealer: g.Setup.Players[h.Dealer], Record: h.Record(),
				Deltas: unitsByName(g, deltas), PotDelta: pot, Pot: pots[i], Voided: h.Voided, VoidReason: h.VoidReason,
				Explanation: res.Text(), Detail: res.ExplanationJSON(), Revisions: h.Entered(), Changes: h.Changes()}
			for _, r := range h.Revisions {
				rj := revisionJSON{Kind: r.Kind, At: r.At, Reason: r.Reason, Record: r.Record(), Cause: r.Cause}
				if rr := r.Result(); rr != nil {
					pot := rr.PotDelta()
					rj.Deltas, rj.PotDelta, rj.Explanation = unitsByName(g, rr.Deltas()), &pot, rr.Text()
				}
				hj.History = append(hj.History, rj)
			}
			out = append(out, hj)
		}
		return writeJSON(c, http.StatusOK, out)
	})
}

type eventJSON struct {
	Seq  int64           `json:"seq"`
	Type string          `json:"type"`
	At   time.Time       `json:"at"`
	Data json.RawMessage `json:"data"`
	Hash string          `json:"hash"`
	// A correction's or void's: what it changed downstream (changed_json.go).
	Changed *changedJSON `json:"changed,omitempty"`
}

func (a api) events(c echo.Context) error { return writeEvents(c, a.svc) }

func eventsOut(evs []events.Event) []eventJSON {
	out := make([]eventJSON, len(evs))
	for i, e := range evs {
		out[i] = eventJSON{Seq: e.Version, Type: e.Type, At: e.RecordedAt, Data: e.Data, Hash: e.Hash}
	}
	return out
}

type transferJSON struct {
	From   string   `json:"from"`
	To     string   `json:"to"`
	Amount string   `json:"amount"`
	Pay    *payJSON `json:"pay,omitempty"`   // how the payee can be paid (paying.go)
	State  string   `json:"state,omitempty"` // open, paid or confirmed, once the evening is closed
}

type settlementJSON struct {
	Balances    map[string]decimal.Decimal `json:"balances"`
	Pot         decimal.Decimal            `json:"pot"`
	Money       map[string]string          `json:"money"`
	Transfers   []transferJSON             `json:"transfers"`
	Split       map[string]decimal.Decimal `json:"split,omitempty"`
	RemainderTo []string                   `json:"remainder_to,omitempty"`
	Provisional bool                       `json:"provisional,omitempty"`
	Undecided   *undecidedJSON             `json:"undecided,omitempty"`
}

// undecidedJSON: the pot units that wait for the cut, and who may win them.
type undecidedJSON struct {
	Units int      `json:"units"`
	Among []string `json:"among"`
}

func settlementOut(g *tapp.State, s tapp.Settlement) settlementJSON {
	out := settlementJSON{Pot: s.Pot, RemainderTo: s.RemainderTo, Provisional: s.Provisional, Transfers: []transferJSON{}}
	if s.Undecided > 0 {
		out.Undecided = &undecidedJSON{Units: s.Undecided, Among: s.CutAmong}
	}
	out.Balances, out.Money = balancesOut(g, s.Balances)
	if !s.Pot.IsZero() || len(s.Split) > 0 {
		out.Split, _ = balancesOut(g, s.Split)
	}
	for _, t := range s.Transfers {
		out.Transfers = append(out.Transfers, transferJSON{From: t.From, To: t.To, Amount: g.MoneyText(t.Amount)})
	}
	return out
}

func (a api) closeGame(c echo.Context) error {
	var b struct {
		RemainderTo []string `json:"remainder_to"`
	}
	if err := decode(c, &b, true); err != nil {
		return err
	}
	g, err := a.svc.Close(c.Request().Context(), gameID(c), tapp.Close{RemainderTo: b.RemainderTo}, c.Request().Header.Get(idempotencyHeader))
	if err != nil {
		return err
	}
	s := g.Settlement()
	out := settlementOut(g, s)
	if err := a.withPay(c.Request().Context(), g, s, &out, !readOnly(c)); err != nil {
		return err
	}
	return writeJSON(c, http.StatusOK, out)
}

func (a api) settlement(c echo.Context) error {
	return a.svc.View(c.Request().Context(), gameID(c), func(g *tapp.State) error {
		s := g.Settlement()
		out := settlementOut(g, s)
		if err := a.withPay(c.Request().Context(), g, s, &out, !readOnly(c)); err != nil {
			return err
		}
		return writeJSON(c, http.StatusOK, out)
	})
}
