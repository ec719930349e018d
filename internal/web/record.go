package web

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"tappbook/internal/game"
	"tappbook/internal/i18n"
	"tappbook/internal/payout"
	"tappbook/internal/problem"
	"tappbook/internal/tapp"
	"tappbook/templates"
)

// dealForm is the record form's input, as typed.
type dealForm struct {
	values url.Values
	errs   map[string]string // by form field: declarer, points, ramsch.<seat>.points, …
	err    string            // a message for the whole form
	// instead: what to say in place of a refusal, by its field and code
	// ("ramsch.2.tricks ramsch.tricks-missing"), where the refusal is
	// about a count left blank that the form filled in, or could not.
	instead map[string]string
	// opponents: the points typed for the opponents, which the record
	// holds as the declarer's side's (nil when typed for the declarer's).
	opponents *int
	// reason: a correction's reason, as tapped and typed (givenReason).
	reason string
}

func (f *dealForm) get(k string) string { return strings.TrimSpace(f.values.Get(k)) }

func (u ui) recordForm(c echo.Context) error {
	p, loc := u.page(c, "record.title-new")
	f := dealForm{values: c.QueryParams(), errs: map[string]string{}}
	err := u.svc.View(c.Request().Context(), gameID(c), func(g *tapp.State) error {
		if err := g.MayRecord(); err != nil {
			return err // closed, or every deal played: said before anything is typed
		}
		p.Title = loc.T("record.title", g.NextHand())
		return render(c, http.StatusOK, templates.Record(withDeal(loc, g, u.recordView(p, loc, g, g.NextHand(), c.QueryParam("contract"), f, false))))
	})
	if err != nil {
		return u.problem(c, err)
	}
	return nil
}

// submitDeal handles a posted deal form: parse it, let submit record it, and
// on a refusal show the form again with what was typed and the message next
// to its field.
func (u ui) submitDeal(c echo.Context, hand func(*tapp.State) int, edit bool, submit func(payout.Record, *dealForm) (int, error)) error {
	form, err := formParams(c)
	if err != nil {
		return u.problem(c, err)
	}
	p, loc := u.page(c, "record.title-new")
	f := dealForm{values: form, errs: map[string]string{}}
	var rec payout.Record
	var n int
	// Parse under the game's read lock, submit outside it.
	if err := u.svc.View(c.Request().Context(), gameID(c), func(g *tapp.State) error {
		n = hand(g)
		rec = parseDeal(loc, g, &f)
		f.reason = givenReason(loc, correctionReasons(), form)
		if edit && f.reason == "" {
			// The history says why every number changed: a correction on
			// the form says why, a tap or words, as a void does (the API
			// leaves it to the script).
			f.errs["reason"] = loc.T("record.reason-missing")
		}
		return nil
	}); err != nil {
		return u.problem(c, err)
	}
	var number int
	if len(f.errs) == 0 {
		number, err = submit(rec, &f)
	}
	if len(f.errs) == 0 && err == nil {
		// The table opens at its top, with the standings and the next
		// Record button in view; the deal is highlighted, not scrolled to.
		return c.Redirect(http.StatusSeeOther, "/g/"+gameID(c)+"?saved="+strconv.Itoa(number))
	}
	status := u.refusalStatus(c, err)
	if problem.IsKind(err, problem.NotFound) {
		return u.problem(c, err)
	}
	return u.svc.View(c.Request().Context(), gameID(c), func(g *tapp.State) error {
		n = sayRefusal(loc, g, &f, rec, err, status == http.StatusConflict, edit, n)
		if edit {
			p.Title = loc.T("record.title-edit", n)
		} else {
			p.Title = loc.T("record.title", n)
		}
		return render(c, status, templates.Record(withDeal(loc, g, u.recordView(p, loc, g, n, f.get("contract"), f, edit))))
	})
}

// refusalStatus is the status a refused or failed deal form is answered
// with.
func (u ui) refusalStatus(c echo.Context, err error) int {
	status := http.StatusUnprocessableEntity
	if problem.IsKind(err, problem.Conflict) {
		status = http.StatusConflict
	}
	if _, refused := problem.As(err); err != nil && !refused {
		// The server failed, not what was typed (a database that timed
		// out, a full disk, a save whose outcome is unknown): a 5xx, which
		// a queued send keeps and retries by itself, where a 4xx would
		// drop it. The form keeps its key: saving it again records it at
		// most once.
		status, _ = statusOf(err)
		setRetryAfter(c, err)
		logFailed(u.log, c, err)
	}
	return status
}

// sayRefusal puts why a deal was refused on its form: beside each field,
// or for the whole form (sent before, changed meanwhile, recorded by
// another phone). It gives the deal number the form now records: the next
// one after a conflict.
func sayRefusal(loc i18n.Localizer, g *tapp.State, f *dealForm, rec payout.Record, err error, conflict, edit bool, n int) int {
	if err != nil {
		place(loc, g, f, err)
	}
	if len(f.errs) > 0 || problem.IsKind(err, problem.Input) {
		// What was typed is refused: every field left blank that the
		// contract needs is said at once (the rules stop at the
		// first), also where no script marked them before sending.
		for _, blank := range payout.Missing(g.Setup.Variant, rec) {
			if ie, ok := problem.As(blank); ok && f.errs[ie.Field] == "" {
				place(loc, g, f, blank)
			}
		}
	}
	if err != nil {
		if pe, ok := problem.As(err); ok && pe.Code == "key.reused" {
			// The form was sent before (the back button, a kept page):
			// said in words, and a new key, so that saving again saves.
			f.err = loc.T("record.already-sent")
			f.values.Set("idempotency_key", newKey())
		}
		if pe, ok := problem.As(err); ok && pe.Code == "conflict.entered" {
			// What the deal reads now, in the page's language.
			h := g.Hand(n)
			now := strings.TrimSuffix(h.Result().Explanation().Render(loc), ".")
			if h.Voided {
				now = loc.T("record.now-voided", h.VoidReason)
			}
			f.err = loc.T("record.entered", n, now)
			// Shown again as the deal stands now: saved again, it
			// replaces it, as meant.
			f.values.Set("changes", strconv.Itoa(h.Changes()))
		}
		if pe, ok := problem.As(err); ok && pe.Code == "conflict.hand" && !edit {
			f.err += " " + otherPhone(loc, g, f.get("expected_hand"))
		}
		if conflict {
			// The deal number moved on (another phone recorded): the
			// retry gets a new key and the new number.
			f.values.Set("idempotency_key", newKey())
			if !edit {
				n = g.NextHand()
			}
		}
	}
	return n
}

func (u ui) record(c echo.Context) error {
	return u.submitDeal(c, func(g *tapp.State) int { return g.NextHand() }, false, func(rec payout.Record, f *dealForm) (int, error) {
		checks := game.Checks{}
		if eh, err := strconv.Atoi(f.get("expected_hand")); err == nil {
			checks.ExpectedHand = &eh
		}
		ans, err := u.svc.Record(c.Request().Context(), gameID(c), rec, checks, f.get("idempotency_key"))
		return ans.Hand, err
	})
}

// editForm shows deal n's form filled with its current record, and the void
// form.
func (u ui) editForm(c echo.Context) error {
	n, err := handNumber(c)
	if err != nil {
		return u.problem(c, err)
	}
	p, loc := u.page(c, "record.title-edit", n)
	err = u.svc.View(c.Request().Context(), gameID(c), func(g *tapp.State) error {
		h := g.Hand(n)
		if h == nil {
			return tapp.Messages().NotFound("notfound.hand", n)
		}
		if err := g.MayCorrect(); err != nil {
			return err // closed: said before anything is typed, not on saving
		}
		// The deal's record, with what was tapped on this page before
		// another contract was chosen: switching keeps it.
		f := dealForm{values: recordValues(g, h.Record()), errs: map[string]string{}}
		for k, vs := range c.QueryParams() {
			if k != "contract" && k != "lang" && k != "theme" {
				f.values[k] = vs
			}
		}
		contract := c.QueryParam("contract")
		if contract == "" {
			contract = h.Record().Contract
		}
		return render(c, http.StatusOK, templates.Record(u.recordView(p, loc, g, n, contract, f, true)))
	})
	if err != nil {
		return u.problem(c, err)
	}
	return nil
}

func (u ui) correct(c echo.Context) error {
	n, err := handNumber(c)
	if err != nil {
		return u.problem(c, err)
	}
	return u.submitDeal(c, func(*tapp.State) int { return n }, true, func(rec payout.Record, f *dealForm) (int, error) {
		checks := game.Checks{}
		if changes, err := strconv.Atoi(f.get("changes")); err == nil {
			checks.Changes = &changes
		}
		ans, err := u.svc.Correct(c.Request().Context(), gameID(c), n, rec, f.reason, checks, f.get("idempotency_key"))
		return ans.Hand, err
	})
}

func (u ui) void(c echo.Context) error {
	n, err := handNumber(c)
	if err != nil {
		return u.problem(c, err)
	}
	form, err := formParams(c)
	if err != nil {
		return u.problem(c, err)
	}
	p, loc := u.page(c, "record.title-edit", n)
	err = u.svc.Void(c.Request().Context(), gameID(c), n, givenReason(loc, voidReasons(), form), form.Get("idempotency_key"))
	if err == nil {
		return c.Redirect(http.StatusSeeOther, "/g/"+gameID(c)+"?saved="+strconv.Itoa(n))
	}
	if !problem.IsKind(err, problem.Input) {
		return u.problem(c, err)
	}
	// The language and theme switch on the deal's own page, which a GET
	// reaches; the void's address takes a POST only.
	p.Path = p.Root + "/g/" + gameID(c) + "/hands/" + strconv.Itoa(n)
	return u.svc.View(c.Request().Context(), gameID(c), func(g *tapp.State) error {
		h := g.Hand(n)
		rec := h.Record()
		f := dealForm{values: recordValues(g, rec), errs: map[string]string{}}
		v := u.recordView(p, loc, g, n, rec.Contract, f, true)
		v.Reason.Error = loc.Error(err)
		return render(c, http.StatusUnprocessableEntity, templates.Record(v))
	})
}
