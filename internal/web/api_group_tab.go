package web

import (
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"tappbook/internal/group"
	"tappbook/internal/tapp"
)

type tabJSON struct {
	Owed      map[string]string `json:"owed"`
	Transfers []transferJSON    `json:"transfers"`
	Evenings  int               `json:"evenings"` // the closed evenings counted
	Currency  string            `json:"currency"`
	Cash      *cashJSON         `json:"cash,omitempty"`
	// Unconfirmed: the tab's own payments sent whose payees have not yet
	// said they arrived; the tab counts them already.
	Unconfirmed []int `json:"unconfirmed"`
	// UnconfirmedEvenings: the same for the evenings' transfers marked
	// sent, which have no payment number: each names its evening and
	// transfer, where the payee confirms it (an addition).
	UnconfirmedEvenings []sentJSON `json:"unconfirmed_evenings"`
	// Reopened (an addition): the evenings, by their place in the group's
	// evenings from 1, that were closed and are open again. Their money is
	// out of owed until they close again, but what was paid on them is
	// in, so transfers then include paying that back: a client should say
	// so and hold them back. Absent while none is.
	Reopened []int `json:"reopened,omitempty"`
}

// sentJSON is an evening's transfer marked sent and not yet confirmed.
// Transfer is its index in the evening's close, absent while the evening
// is reopened (nothing is confirmed then); the evening's id is left out
// on a read-only link, as in stats.
type sentJSON struct {
	Game     string `json:"game,omitempty"`
	ReadID   string `json:"read_id"`
	Transfer *int   `json:"transfer,omitempty"`
	transferJSON
}

// cashJSON: the suggested transfers rounded to what can be paid in cash,
// where the currency's coins stop above its minor unit.
type cashJSON struct {
	Step      string         `json:"step"`
	Transfers []transferJSON `json:"transfers"`
}

// tabOut is the tab as api.md shows it: amounts with the group's places.
func tabOut(st *group.State, t group.Tab) tabJSON {
	places := st.Places()
	out := tabJSON{Owed: map[string]string{}, Transfers: transfersOut(t.Transfers, places), Evenings: t.Evenings, Currency: st.Currency, Reopened: t.Reopened}
	for i, name := range t.Names {
		out.Owed[name] = t.Owed[i].StringFixed(places)
	}
	if step, ok := group.CashStep(st.Currency); ok {
		out.Cash = &cashJSON{Step: step.StringFixed(places), Transfers: transfersOut(group.CashTransfers(t.Names, t.Owed, step), places)}
	}
	return out
}

func transfersOut(ts []tapp.Transfer, places int32) []transferJSON {
	out := []transferJSON{}
	for _, t := range ts {
		out = append(out, transferJSON{From: t.From, To: t.To, Amount: t.Amount.StringFixed(places)})
	}
	return out
}

// tab answers GET /api/groups/{id}/tab: what the members owe each other
// and the transfers that would settle it.
func (a api) tab(c echo.Context) error {
	v, err := a.groups().View(c.Request().Context(), groupID(c))
	if err != nil {
		return err
	}
	out := tabOut(v.Group, v.Group.Tab(v.Games))
	withTabPay(v.Group, &out, time.Now(), !readOnly(c))
	out.UnconfirmedEvenings = unconfirmedEvenings(v.Games, readOnly(c))
	return writeJSON(c, http.StatusOK, out)
}

// unconfirmedEvenings are the evenings' transfers marked sent that their
// payees have not confirmed: the tab counts them from the mark, as it does
// a payment recorded as sent, and so says they await the payee's word.
func unconfirmedEvenings(games []*tapp.State, readOnly bool) []sentJSON {
	out := []sentJSON{}
	for _, g := range games {
		if g == nil {
			continue
		}
		for _, s := range g.Sent() {
			if s.Confirmed {
				continue
			}
			sj := sentJSON{ReadID: g.ReadID, transferJSON: transferJSON{From: s.From, To: s.To, Amount: g.MoneyText(s.Amount)}}
			if !readOnly {
				sj.Game = g.ID
			}
			if s.Index >= 0 {
				i := s.Index
				sj.Transfer = &i
			}
			out = append(out, sj)
		}
	}
	return out
}
