package web

import (
	"bytes"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"tappbook/internal/events"
	"tappbook/internal/game"
	"tappbook/internal/i18n"
	"tappbook/internal/payout"
	"tappbook/internal/tapp"
	"tappbook/templates"
)

// auditPage is how many events a page of the history shows: the page of
// a 5,000-deal evening is built from one event at a time and holds only
// its own 200 (BenchmarkHistoryUnderReaders).
const auditPage = 200

// audit answers GET /g/{id}/audit (and through a read-only link): the
// History, a page of events at a time.
func (u ui) audit(c echo.Context) error {
	ctx := c.Request().Context()
	p, loc := u.page(c, "audit.title")
	g, err := u.svc.Snapshot(ctx, gameID(c))
	if err != nil {
		return u.problem(c, err)
	}
	total := int(g.Version)
	from, to := auditRange(c.QueryParam("from"), total)
	v := templates.AuditView{Page: p, Verified: loc.T("audit.count", total), Units: amountsIn(loc, g)}
	v.EveningClosed = g.Closed != nil
	if total > auditPage {
		v.Range = loc.T("audit.page", from, to, total)
		v.Pages = auditLinks(loc, v.Base+"/audit", from, total)
	}
	h := historyBuilder{loc: loc, g: g, base: v.Base, from: int64(from), to: int64(to), seen: map[int]moved{}, records: map[int]payout.Record{}}
	var batch []events.Event // one command's events: a correction's re-scorings come with it
	var changed []*tapp.Downstream
	err = u.svc.EachEventChanged(ctx, g, func(e events.Event, ch *tapp.Downstream) error {
		if len(batch) > 0 && e.Batch != batch[0].Batch {
			v.Events = h.batch(v.Events, batch, changed)
			batch, changed = batch[:0], changed[:0]
		}
		if e.Version > int64(to) && len(batch) == 0 {
			return game.ErrStop
		}
		e.Data = bytes.Clone(e.Data) // lent by the store
		e = readableEvent(c, e)
		batch, changed = append(batch, e), append(changed, ch)
		return nil
	})
	if err != nil {
		return u.problem(c, err)
	}
	v.Events = h.batch(v.Events, batch, changed)
	return render(c, http.StatusOK, templates.Audit(v))
}

// auditRange is the events a page shows: from the one asked for (by its
// number), or the latest page, auditPage at most.
func auditRange(asked string, total int) (from, to int) {
	from = max(1, total-auditPage+1)
	if n, err := strconv.Atoi(asked); err == nil && n >= 1 && n <= total {
		from = n
	}
	return from, min(total, from+auditPage-1)
}

// auditLinks are the links to the other pages of a long history.
func auditLinks(loc i18n.Localizer, base string, from, total int) []templates.Link {
	at := func(n int) string { return base + "?from=" + strconv.Itoa(n) }
	var out []templates.Link
	if from > 1 {
		out = append(out, templates.Link{URL: at(1), Text: loc.T("audit.first")},
			templates.Link{URL: at(max(1, from-auditPage)), Text: loc.T("audit.earlier")})
	}
	if from+auditPage <= total {
		out = append(out, templates.Link{URL: at(from + auditPage), Text: loc.T("audit.later")},
			templates.Link{URL: base, Text: loc.T("audit.latest")})
	}
	return out
}
