package web

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"tappbook/internal/group"
	"tappbook/internal/i18n"
	"tappbook/templates"
)

// statsPage answers /groups/{id}/stats and /r/{read id}/stats.
func (u ui) statsPage(c echo.Context) error {
	gv, err := u.svc.Groups().View(c.Request().Context(), groupID(c))
	if err != nil {
		return u.problem(c, err)
	}
	st := gv.Group
	p, loc, base := u.groupHead(c, st, "/stats", "stats.title", st.Name)
	return render(c, http.StatusOK, templates.Stats(statsView(p, loc, base, st, st.Stats(gv.Games))))
}

// groupMoney writes the group's money in the reader's language.
func groupMoney(loc i18n.Localizer, st *group.State) moneyWriter {
	return moneyWriter{loc: loc, currency: st.Currency, places: st.Places()}
}
