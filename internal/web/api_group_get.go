package web

import (
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"tappbook/internal/game"
	"tappbook/internal/payout"
)

// readLink answers GET /api/r/{read id}: the game a game's read-only key
// opens (looked for first: games are read most, and from memory), else the
// group.
func (a api) readLink(c echo.Context) error {
	if _, err := a.svc.Snapshot(c.Request().Context(), gameID(c)); err == nil {
		return a.getGame(c)
	}
	return a.getGroup(c)
}

type groupJSON struct {
	ID       string        `json:"id,omitempty"` // never given through the read-only link
	ReadID   string        `json:"read_id"`
	Name     string        `json:"name"`
	Players  []string      `json:"players"`
	Unit     string        `json:"unit"`
	Currency string        `json:"currency"`
	Evenings []eveningJSON `json:"evenings"`
}

// eveningJSON is one evening of a group. Through the read-only link it
// gives the evening's read-only key alone.
type eveningJSON struct {
	ID      string            `json:"id,omitempty"`
	ReadID  string            `json:"read_id"`
	Variant payout.Variant    `json:"variant"`
	Players []string          `json:"players"`
	Started time.Time         `json:"started"`
	Closed  bool              `json:"closed"`
	Money   map[string]string `json:"money"`
	Hands   int               `json:"hands"`
}

// groupOut is a group with its evenings, newest first; an evening whose
// game never started is not one.
func groupOut(v game.View, readOnly bool) groupJSON {
	st := v.Group
	out := groupJSON{ID: st.ID, ReadID: st.ReadID, Name: st.Name, Players: st.MemberNames(), Unit: st.UnitText,
		Currency: st.Currency, Evenings: []eveningJSON{}}
	if readOnly {
		out.ID = ""
	}
	for i := len(v.Games) - 1; i >= 0; i-- {
		g := v.Games[i]
		if g == nil {
			continue
		}
		ev := eveningJSON{ID: g.ID, ReadID: g.ReadID, Variant: g.Setup.Variant, Players: g.Setup.Players,
			Started: g.StartedAt, Closed: g.Closed != nil, Hands: len(g.Hands())}
		if readOnly {
			ev.ID = ""
		}
		_, ev.Money = balancesOut(g, g.Balances())
		out.Evenings = append(out.Evenings, ev)
	}
	return out
}

// getGroup answers GET /api/groups/{id}: the group with its evenings.
func (a api) getGroup(c echo.Context) error {
	v, err := a.groups().View(c.Request().Context(), groupID(c))
	if err != nil {
		return err
	}
	return writeJSON(c, http.StatusOK, groupOut(v, readOnly(c)))
}
