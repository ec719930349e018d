package web

import (
	"net/http"
	"net/url"
	"slices"
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
}

func (f *dealForm) get(k string) string { return strings.TrimSpace(f.values.Get(k)) }

// contracts gives the contracts deal hand may be: every one of the
// variant's, or only Ramsch for a Württemberg Zwangsramsch, the next one
// or one played and now corrected.
func contractsFor(g *tapp.State, hand int) []string {
	if end := g.End(); hand == g.NextHand() && end.Phase == tapp.PhaseForced || end.ForcedDeal(hand) {
		return []string{g.Variant().ForcedContract}
	}
	return g.Variant().Offered(g.Setup.Rules)
}

// recordView fills the form for deal hand of a game, for contract.
func (u ui) recordView(p templates.Page, loc i18n.Localizer, g *tapp.State, hand int, contract string, f dealForm, edit bool) templates.RecordView {
	p.EveningClosed = g.Closed != nil
	n := len(g.Setup.Players)
	dealer := g.DealerOf(hand)
	v := templates.RecordView{Page: p, Variant: string(g.Setup.Variant), Hand: hand, Dealer: g.Setup.Players[dealer],
		Forehand: g.Setup.Players[(dealer+1)%n], Edit: edit, Error: f.err, IdemKey: f.get("idempotency_key"),
		CorrectReason: templates.Field{Value: f.get("reason"), Error: f.errs["reason"]}}
	if v.IdemKey == "" {
		v.IdemKey = newKey()
	}
	v.Draft = draftKey(p.GameID, g, hand, edit)
	if h := g.Hand(hand); edit && h != nil {
		v.Voided = h.Voided
		if !h.Voided {
			v.Now = resultView(loc, g, h.Result())
		}
		// What the form was begun from: kept through a refusal of what
		// was typed (a 422), so that it still meets a change made since.
		v.Changes = h.Changes()
		if c, err := strconv.Atoi(f.get("changes")); err == nil {
			v.Changes = c
		}
	}
	available := contractsFor(g, hand)
	if len(available) == 1 {
		contract = available[0]
	}
	if contract == "" {
		contract = g.Variant().DefaultContract // when nobody bids
	}
	if end := g.End(); end.Phase == tapp.PhaseForced && hand == g.NextHand() {
		v.Forced = loc.T("herz.forced", end.Forced, n)
	}
	for _, c := range available {
		v.Contracts = append(v.Contracts, templates.Option{Value: c, Label: loc.T("contract." + c), Selected: c == contract})
	}
	tout := f.get("tout") == "true"
	fields, ok := payout.ContractFields(g.Setup.Variant, contract, tout)
	if !ok {
		return v
	}
	v.Contract = contract
	v.Total = payout.TotalPoints(g.Setup.Variant)
	v.PointsOver = withN(loc.Error(payout.Messages().Input("points", "points.range", sentinel, v.Total)))
	v.PointsOne = loc.Error(payout.Messages().Input("points", "points.one"))
	v.PointsMinusOne = withN(loc.Error(payout.Messages().Input("points", "points.total-minus-one", sentinel)))
	v.PointsWhole = loc.T("form.whole-number")
	pick := func(name string, values, labels []string) []templates.Option {
		var out []templates.Option
		cur := f.get(name)
		for i, val := range values {
			out = append(out, templates.Option{Value: val, Label: labels[i], Selected: val == cur})
		}
		return out
	}
	players := g.Setup.Players
	switch {
	case fields.DeclarerIsForehand:
		v.DeclarerFixed = v.Forehand
	case fields.Declarer != "":
		v.Declarers = pick("declarer", players, players)
	}
	v.DeclarerField = templates.Field{Error: f.errs["declarer"]}
	if fields.Partner != "" {
		var others []string
		for _, name := range players {
			if name != v.Forehand {
				others = append(others, name)
			}
		}
		v.Partners = pick("partner", others, others)
		v.PartnerField = templates.Field{Error: f.errs["partner"]}
	}
	if fields.Trump != "" {
		values := fields.Trumps
		if fields.Trump == "optional" {
			values = append([]string{""}, values...)
		}
		var labels []string
		for _, s := range values {
			labels = append(labels, loc.T("suit."+s+".name"))
		}
		if fields.Trump == "optional" && len(fields.TrumpPays) > 0 {
			values, labels = trumpsThatPay(loc, fields, f.get("trump"))
		}
		v.Trumps = pick("trump", values, labels)
		v.TrumpNeeded = fields.Trump == "required"
		v.TrumpField = templates.Field{Error: f.errs["trump"]}
	}
	v.ToutField, v.Tout = fields.Tout != "", tout
	all := payout.TricksPerDeal(g.Setup)
	switch {
	case fields.WonBy != "":
		// Tricks alone decide: won or lost is one tap, and the count is
		// asked only when lost (a won deal's count is known).
		v.WonBy, v.Outcome = fields.WonBy, outcomeOf(f, fields.WonBy, all)
		win := winningTricks(fields.WonBy, all)
		var values []string
		for t := 0; t <= all; t++ {
			if t != win {
				values = append(values, strconv.Itoa(t))
			}
		}
		v.LostTricks = pick("tricks", values, values)
		v.OutcomeField = templates.Field{Error: f.errs["outcome"]}
		v.TricksField = templates.Field{Error: f.errs["tricks"]}
		if v.Outcome != "lost" && v.TricksField.Error != "" {
			// Won or lost was not tapped: the count's question is hidden,
			// so its refusal goes with won or lost, and asks for that tap.
			msg := v.TricksField.Error
			if o := f.get("outcome"); o != "won" && o != "lost" {
				msg = loc.T("record.outcome-missing", loc.T("record.won"), loc.T("record.lost"))
			}
			v.OutcomeField.Error, v.TricksField.Error = msg, ""
		}
	case fields.Tricks != "":
		var values, labels []string
		// Where points are counted the tricks are asked only when they
		// change the money (api.md): left out, the save says so if they do.
		optional := fields.Tricks == "optional" || fields.Points == "required"
		if optional {
			values, labels = append(values, ""), append(labels, "—")
		}
		for t := 0; t <= all; t++ {
			label := strconv.Itoa(t)
			switch t {
			case 0:
				label = loc.T("record.tricks-none")
			case all:
				label = loc.T("record.tricks-all", all)
			}
			values, labels = append(values, strconv.Itoa(t)), append(labels, label)
		}
		v.Tricks = pick("tricks", values, labels)
		v.TricksNeeded = !optional
		v.TricksField = templates.Field{Error: f.errs["tricks"]}
	}
	if fields.Points != "" {
		v.PointsNeeded = fields.Points == "required"
		v.Points = templates.Field{Value: f.get("points"), Error: f.errs["points"]}
		v.PointsSide = f.get("points_side")
		// Optional points are offered where they count for something;
		// where tricks alone decide they are asked only if already typed.
		v.ShowPoints = v.PointsNeeded || v.Points.Value != "" || v.Points.Error != "" || fields.WonBy == ""
	} else {
		v.Total = 0
	}
	if fields.Kontra != "" {
		cur := f.get("kontra")
		for level := 0; level <= 10; level++ {
			label := loc.T("record.kontra-none")
			if level > 0 {
				label = strconv.Itoa(level) + " · " + payout.KontraName(level)
			}
			v.Kontra = append(v.Kontra, templates.Option{Value: strconv.Itoa(level), Label: label, Selected: cur == strconv.Itoa(level)})
		}
		v.KontraField = templates.Field{Error: f.errs["kontra"]}
	}
	if fields.Matzl != "" && contract != "durch" {
		sides := []string{payout.MatzlNone, payout.MatzlDeclarer, payout.MatzlDefenders}
		labels := []string{loc.T("record.matzl-none"), loc.T("record.matzl-declarer"), loc.T("record.matzl-defenders")}
		v.Matzl = pick("matzl", sides, labels)
		if f.get("matzl") == "" {
			v.Matzl[0].Selected = true
		}
		v.MatzlField = templates.Field{Error: f.errs["matzl"]}
	}
	if fields.Ramsch != "" {
		v.RamschTotal, v.RamschTricks = payout.TotalPoints(g.Setup.Variant), all
		for seat, name := range players {
			key := strconv.Itoa(seat)
			v.Ramsch = append(v.Ramsch, templates.RamschRow{Name: name, NoTrick: f.get("ramsch_none_"+key) == "true",
				Points: templates.Field{Value: f.get("ramsch_points_" + key), Error: f.errs["ramsch."+key+".points"]},
				Tricks: templates.Field{Value: f.get("ramsch_tricks_" + key), Error: f.errs["ramsch."+key+".tricks"]}})
		}
		v.RamschError = f.errs["ramsch"]
	}
	return v
}

// draftKey names the draft the phone keeps of a deal's form while it is
// filled in (static/app.js, in the tab's sessionStorage): the game and the
// deal the form is for, a new deal by its number, a correction by the deal
// and how many times its record has been entered. A draft is put back only
// onto a form with the same name: never onto another deal's form, and
// never onto a correction of a deal entered again since (by another phone,
// say), which it would quietly undo.
func draftKey(game string, g *tapp.State, hand int, edit bool) string {
	if !edit {
		return game + "/new/" + strconv.Itoa(hand)
	}
	entered := 0
	if h := g.Hand(hand); h != nil {
		entered = h.Entered()
	}
	return game + "/edit/" + strconv.Itoa(hand) + "/" + strconv.Itoa(entered)
}

// withDeal names a new deal's form's deal for the phone to record it, and
// the ones after it, without the server (offline.go).
func withDeal(loc i18n.Localizer, g *tapp.State, v templates.RecordView) templates.RecordView {
	if !v.Edit && v.Hand == g.NextHand() && foreseeable(g) && v.GameID != "" {
		v.Deals = nextDeal(loc, v.GameID, g, v.IdemKey)
	}
	return v
}

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
		if edit && strings.TrimSpace(f.get("reason")) == "" {
			// The history says why every number changed: a correction on
			// the form says why, as a void does (the API leaves it to the
			// script).
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
		u.log.Error("deal form failed", "method", c.Request().Method, "path", c.Request().URL.Path, "err", err)
	}
	if problem.IsKind(err, problem.NotFound) {
		return u.problem(c, err)
	}
	return u.svc.View(c.Request().Context(), gameID(c), func(g *tapp.State) error {
		if err != nil {
			place(loc, g, &f, err)
		}
		if len(f.errs) > 0 || problem.IsKind(err, problem.Input) {
			// What was typed is refused: every field left blank that the
			// contract needs is said at once (the rules stop at the
			// first), also where no script marked them before sending.
			for _, blank := range payout.Missing(g.Setup.Variant, rec) {
				if ie, ok := problem.As(blank); ok && f.errs[ie.Field] == "" {
					place(loc, g, &f, blank)
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
			if status == http.StatusConflict {
				// The deal number moved on (another phone recorded): the
				// retry gets a new key and the new number.
				f.values.Set("idempotency_key", newKey())
				if !edit {
					n = g.NextHand()
				}
			}
		}
		if edit {
			p.Title = loc.T("record.title-edit", n)
		} else {
			p.Title = loc.T("record.title", n)
		}
		return render(c, status, templates.Record(withDeal(loc, g, u.recordView(p, loc, g, n, f.get("contract"), f, edit))))
	})
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
		ans, err := u.svc.Correct(c.Request().Context(), gameID(c), n, rec, f.get("reason"), checks, f.get("idempotency_key"))
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
	err = u.svc.Void(c.Request().Context(), gameID(c), n, strings.TrimSpace(form.Get("reason")), form.Get("idempotency_key"))
	if err == nil {
		return c.Redirect(http.StatusSeeOther, "/g/"+gameID(c)+"?saved="+strconv.Itoa(n))
	}
	if !problem.IsKind(err, problem.Input) {
		return u.problem(c, err)
	}
	p, loc := u.page(c, "record.title-edit", n)
	// The language and theme switch on the deal's own page, which a GET
	// reaches; the void's address takes a POST only.
	p.Path = "/g/" + gameID(c) + "/hands/" + strconv.Itoa(n)
	return u.svc.View(c.Request().Context(), gameID(c), func(g *tapp.State) error {
		h := g.Hand(n)
		rec := h.Record()
		f := dealForm{values: recordValues(g, rec), errs: map[string]string{}}
		v := u.recordView(p, loc, g, n, rec.Contract, f, true)
		v.Reason.Error = loc.Error(err)
		return render(c, http.StatusUnprocessableEntity, templates.Record(v))
	})
}

// trumpsThatPay offers only the trumps that change the money (Württemberg:
// hearts) beside "another suit", chosen unless one is tapped: a suit that
// pays alike is not asked (api.md "Recording a deal"). A record naming
// such a suit keeps it when corrected.
func trumpsThatPay(loc i18n.Localizer, fields payout.Fields, cur string) (values, labels []string) {
	other := ""
	if cur != "" && !slices.Contains(fields.TrumpPays, cur) && slices.Contains(fields.Trumps, cur) {
		other = cur
	}
	values, labels = []string{other}, []string{loc.T("suit.other.name")}
	for _, s := range fields.TrumpPays {
		values, labels = append(values, s), append(labels, loc.T("suit."+s+".name"))
	}
	return values, labels
}
