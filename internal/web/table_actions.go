package web

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"tappbook/internal/problem"
	"tappbook/internal/tapp"
	"tappbook/templates"
)

// The table's one-tap actions: undo the last deal (a retract: taken back
// as if never recorded), record it again as it was, and the steps of
// Herz-As. Each posts a form with an idempotency key the page was rendered
// with, so that a tap sent twice counts once.

func (u ui) undo(c echo.Context) error {
	n, err := handNumber(c)
	if err != nil {
		return u.problem(c, err)
	}
	form, err := formParams(c)
	if err != nil {
		return u.problem(c, err)
	}
	if _, err := u.svc.Retract(c.Request().Context(), gameID(c), n, form.Get("reason"), form.Get("idempotency_key")); err != nil {
		return u.problem(c, err)
	}
	return c.Redirect(http.StatusSeeOther, "/g/"+gameID(c)+"?undone="+strconv.Itoa(n))
}

// redo records again, as deal n, the deal just taken back; a deal undone
// before undo was a retract (voided "undone") is brought back by a
// correction, as it was then.
func (u ui) redo(c echo.Context) error {
	n, err := handNumber(c)
	if err != nil {
		return u.problem(c, err)
	}
	form, err := formParams(c)
	if err != nil {
		return u.problem(c, err)
	}
	g, err := u.svc.Snapshot(c.Request().Context(), gameID(c))
	if err != nil {
		return u.problem(c, err)
	}
	key := form.Get("idempotency_key")
	switch h := g.Hand(n); {
	case retractedLast(g, n) != nil:
		rec := retractedLast(g, n).Record()
		_, err = u.svc.Record(c.Request().Context(), gameID(c), rec, tapp.Checks{ExpectedHand: &n}, key)
	case h != nil && h.Voided && h.VoidReason == undoReason:
		_, err = u.svc.Correct(c.Request().Context(), gameID(c), n, h.Record(), redoReason, tapp.Checks{}, key)
	case h == nil:
		err = tapp.Messages().NotFound("notfound.hand", n)
	}
	// Otherwise recorded again already (the tap arrived twice, or another
	// phone was quicker): the deal counts, which is what was asked.
	if err != nil {
		return u.problem(c, err)
	}
	return c.Redirect(http.StatusSeeOther, "/g/"+gameID(c)+"?saved="+strconv.Itoa(n))
}

// herzAsConfirm asks before Herz-As is said: it starts the end of the
// evening.
func (u ui) herzAsConfirm(c echo.Context) error {
	p, loc := u.page(c, "herz.confirm-title")
	return u.svc.View(c.Request().Context(), gameID(c), func(g *tapp.State) error {
		if _, err := tapp.Decide(g, tapp.AnnounceHerzAs{}); err != nil {
			return u.problem(c, err)
		}
		after := len(g.Hands())
		return render(c, http.StatusOK, templates.HerzAsConfirm(templates.HerzAsConfirmView{Page: p,
			Text: loc.T("herz.confirm-text", after+1), Button: loc.T("herz.confirm", after),
			Key: fmt.Sprintf("herz-as-after-%d-v%d", after, g.Version)}))
	})
}

// herzAsWithdrawConfirm asks before Herz-As is taken back.
func (u ui) herzAsWithdrawConfirm(c echo.Context) error {
	p, loc := u.page(c, "herz.withdraw-title")
	return u.svc.View(c.Request().Context(), gameID(c), func(g *tapp.State) error {
		if _, err := tapp.Decide(g, tapp.WithdrawHerzAs{Reason: undoReason}); err != nil {
			return u.problem(c, err)
		}
		return render(c, http.StatusOK, templates.HerzAsConfirm(templates.HerzAsConfirmView{Page: p,
			Text: loc.T("herz.withdraw-text"), Button: loc.T("herz.withdraw"),
			Key: fmt.Sprintf("herz-as-withdraw-v%d", g.Version)}))
	})
}

func (u ui) herzAs(c echo.Context) error {
	form, err := formParams(c)
	if err != nil {
		return u.problem(c, err)
	}
	if _, err := u.svc.AnnounceHerzAs(c.Request().Context(), gameID(c), form.Get("idempotency_key")); err != nil {
		return u.problem(c, err)
	}
	return c.Redirect(http.StatusSeeOther, "/g/"+gameID(c))
}

// herzAsHolder: who was dealt ♥A, or (the choice with no player) that it
// lay in the tapp.
func (u ui) herzAsHolder(c echo.Context) error {
	form, err := formParams(c)
	if err != nil {
		return u.problem(c, err)
	}
	player := strings.TrimSpace(form.Get("player"))
	inTapp := form.Get("in_tapp") == "true" || (form.Has("player") && player == "")
	say := tapp.SayHerzAsHolder{Player: player, InTapp: inTapp, Change: form.Get("change") == "true"}
	if _, err := u.svc.HerzAsHolder(c.Request().Context(), gameID(c), say, form.Get("idempotency_key")); err != nil {
		if pe, ok := problem.As(err); ok && pe.Code == "key.reused" {
			// The key is the question's: another phone answered it
			// first, otherwise. Say what was answered, not "key".
			if g, serr := u.svc.Snapshot(c.Request().Context(), gameID(c)); serr == nil {
				if answered := g.End().Answered(); answered != nil {
					err = answered
				}
			}
		}
		return u.problem(c, err)
	}
	return c.Redirect(http.StatusSeeOther, "/g/"+gameID(c))
}

func (u ui) herzAsWithdraw(c echo.Context) error {
	form, err := formParams(c)
	if err != nil {
		return u.problem(c, err)
	}
	if _, err := u.svc.WithdrawHerzAs(c.Request().Context(), gameID(c), undoReason, form.Get("idempotency_key")); err != nil {
		return u.problem(c, err)
	}
	return c.Redirect(http.StatusSeeOther, "/g/"+gameID(c))
}
