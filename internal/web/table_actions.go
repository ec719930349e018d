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

// The table's one-tap actions: undo the deal just saved (a void with the
// reason "undone"), take the undo back (a correction with the deal's last
// record), and the steps of Herz-As. Each posts a form with an idempotency
// key the page was rendered with, so that a tap sent twice counts once.

func (u ui) undo(c echo.Context) error {
	n, err := handNumber(c)
	if err != nil {
		return u.problem(c, err)
	}
	form, err := formParams(c)
	if err != nil {
		return u.problem(c, err)
	}
	if err := u.svc.Void(c.Request().Context(), gameID(c), n, undoReason, form.Get("idempotency_key")); err != nil {
		return u.problem(c, err)
	}
	return c.Redirect(http.StatusSeeOther, "/g/"+gameID(c)+"?undone="+strconv.Itoa(n))
}

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
	h := g.Hand(n)
	if h == nil {
		return u.problem(c, tapp.Messages().NotFound("notfound.hand", n))
	}
	if !h.Voided {
		// Taken back already (the tap arrived twice, or another phone was
		// quicker): the deal counts, which is what was asked.
		return c.Redirect(http.StatusSeeOther, "/g/"+gameID(c)+"?saved="+strconv.Itoa(n))
	}
	if _, err := u.svc.Correct(c.Request().Context(), gameID(c), n, h.Record(), redoReason, tapp.Checks{}, form.Get("idempotency_key")); err != nil {
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
