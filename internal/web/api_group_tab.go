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
	// Unconfirmed: the payments sent whose payees have not yet said they
	// arrived; the tab counts them already.
	Unconfirmed []int `json:"unconfirmed"`
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
	out := tabJSON{Owed: map[string]string{}, Transfers: transfersOut(t.Transfers, places), Evenings: t.Evenings, Currency: st.Currency}
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
	return writeJSON(c, http.StatusOK, out)
}
