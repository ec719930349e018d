package web

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"
	"github.com/shopspring/decimal"

	"tappbook/internal/game"
	"tappbook/internal/group"
	"tappbook/internal/i18n"
	"tappbook/internal/problem"
	"tappbook/internal/tapp"
	"tappbook/templates"
)

func (u ui) tabPage(c echo.Context) error {
	v, err := u.svc.Groups().View(c.Request().Context(), groupID(c))
	if err != nil {
		return u.problem(c, err)
	}
	return render(c, http.StatusOK, templates.Tab(u.tabView(c, v, nil, nil)))
}

// tabView fills the tab page; form is what was posted, errs the refusal of
// a payment or a void, if any.
func (u ui) tabView(c echo.Context, gv game.View, form map[string][]string, refusal *formRefusal) templates.TabView {
	st := gv.Group
	p, loc, base := u.groupHead(c, st, "/tab", "tab.title", st.Name)
	places := st.Places()
	money := func(d decimal.Decimal) string { return loc.Money(d, st.Currency, places) }
	tab := st.Tab(gv.Games)
	v := templates.TabView{Page: p, Group: base, Evenings: tab.Evenings, Members: st.MemberNames()}
	for i, name := range tab.Names {
		v.Owed = append(v.Owed, templates.MoneyView{Name: name, Amount: money(tab.Owed[i]), Negative: tab.Owed[i].IsNegative()})
	}
	transfers := tab.Transfers
	v.Square = len(tab.Transfers) == 0
	step, hasCash := group.CashStep(st.Currency)
	if hasCash {
		v.CashStep = money(step)
		v.Cash = c.QueryParam("cash") != ""
	}
	if v.Cash {
		transfers = group.CashTransfers(tab.Names, tab.Owed, step)
	}
	wait := tabReopened(c, &v, loc, gv, tab.Reopened)
	for i, t := range transfers {
		value := t.Amount.StringFixed(places)
		tv := templates.TabTransfer{From: t.From, To: t.To, Amount: money(t.Amount), Value: value,
			Key: paidKey(st.Version, tab.Evenings, i, t.From, t.To, value), MarkPaid: loc.T("pay.mark-paid", t.From), Wait: wait}
		if !v.Cash && !readOnly(c) && wait == "" {
			tabPayWays(&tv, loc, st, t.To, t.Amount, i, u.reach.Root())
		}
		v.Transfers = append(v.Transfers, tv)
	}
	v.Saved = tabSaved(c, loc, st, money)
	v.Payments = paymentViews(loc, st, money, refusal)
	v.EveningPayments = eveningPaymentViews(c, p, loc, gv, money)
	v.Form = paymentForm(st, form, refusal)
	v.PayDetails = shownDetails(c, loc, v.Members, st.PayOf)
	return v
}

// tabReopened tells, above the tab, which evenings are reopened: their
// money is out of the tab while what was paid on them is in, so the
// transfers shown pay that back, and paying them now would only have it
// paid once more when the evening closes again. It gives what each
// transfer says instead of offering a way to pay ("" with none reopened).
func tabReopened(c echo.Context, v *templates.TabView, loc i18n.Localizer, gv game.View, reopened []int) string {
	if len(reopened) == 0 {
		return ""
	}
	var ns []string
	for _, n := range reopened {
		ns = append(ns, strconv.Itoa(n))
		g := gv.Games[n-1]
		href := v.Page.Root + "/g/" + g.ID
		if readOnly(c) {
			href = v.Page.Root + "/r/" + g.ReadID
		}
		v.ReopenedLinks = append(v.ReopenedLinks, templates.Link{URL: href, Text: loc.T("group.evening-n", n)})
	}
	list := strings.Join(ns, ", ")
	v.Reopened = loc.T("tab.reopened", len(ns), list)
	return loc.T("tab.wait-reopened", len(ns), list)
}

// tabSaved says what the tab's last action did: a payment recorded,
// confirmed or voided ("" for none).
func tabSaved(c echo.Context, loc i18n.Localizer, st *group.State, money func(decimal.Decimal) string) string {
	// One action at a time; where an address names several, the void
	// is said over the confirmation, and that over the payment.
	if n, err := strconv.Atoi(c.QueryParam("voided")); err == nil {
		if pm := st.Payment(n); pm != nil && pm.Voided {
			return loc.T("tab.voided", n, loc.T("tab.paid-text", pm.From, pm.To, money(pm.Amount)))
		}
	}
	if n, err := strconv.Atoi(c.QueryParam("confirmed")); err == nil {
		if pm := st.Payment(n); pm != nil && pm.ConfirmedBy != "" {
			return loc.T("tab.confirmed", n, loc.T("tab.paid-text", pm.From, pm.To, money(pm.Amount)))
		}
	}
	if n, err := strconv.Atoi(c.QueryParam("paid")); err == nil {
		if pm := st.Payment(n); pm != nil && !pm.Voided {
			return loc.T("tab.saved", n, loc.T("tab.paid-text", pm.From, pm.To, money(pm.Amount)))
		}
	}
	return ""
}

// paymentViews are the group's payments, newest first; the one a refusal
// is about shows it beside its reason.
func paymentViews(loc i18n.Localizer, st *group.State, money func(decimal.Decimal) string, refusal *formRefusal) []templates.PaymentView {
	var out []templates.PaymentView
	ps := st.Payments()
	for i := len(ps) - 1; i >= 0; i-- {
		pm := ps[i]
		pv := templates.PaymentView{Number: pm.Number, Text: loc.T("tab.paid-text", pm.From, pm.To, money(pm.Amount)), Note: pm.Note,
			At: whenOf(pm.At, "minute"), Voided: pm.Voided, VoidReason: pm.VoidReason, To: pm.To}
		paymentState(&pv, loc, pm)
		if refusal != nil && refusal.payment == pm.Number {
			pv.Reason = templates.Field{Value: refusal.value, Error: refusal.msg}
		}
		out = append(out, pv)
	}
	return out
}

// eveningPaymentViews are the payments marked on the evenings' own
// transfers, which the tab counts: listed, so that the payments shown
// explain the balances, each linked to its evening, newest evening first.
func eveningPaymentViews(c echo.Context, p templates.Page, loc i18n.Localizer, gv game.View, money func(decimal.Decimal) string) []templates.EveningPaymentView {
	var out []templates.EveningPaymentView
	for i := len(gv.Games) - 1; i >= 0; i-- {
		g := gv.Games[i]
		if g == nil {
			continue
		}
		href := p.Root + "/g/" + g.ID + "/pay"
		if readOnly(c) {
			href = p.Root + "/r/" + g.ReadID
		}
		for _, t := range g.Sent() {
			ev := templates.EveningPaymentView{Text: loc.T("tab.paid-text", t.From, t.To, money(g.Money(t.Amount))),
				Evening: loc.T("variant." + string(g.Setup.Variant)), Date: whenOf(g.StartedAt, "date"), Href: href, State: tapp.StatePaid}
			if t.Confirmed {
				ev.State = tapp.StateConfirmed
			} else if t.Index >= 0 && !readOnly(c) {
				ev.ConfirmHref = href + "#transfer-" + strconv.Itoa(t.Index)
				ev.MarkArrived = loc.T("pay.mark-received", t.To)
			}
			ev.StateText = loc.T("pay.state." + ev.State)
			out = append(out, ev)
		}
	}
	return out
}

// paymentForm is the form for a new payment, as sent when it was refused.
func paymentForm(st *group.State, form map[string][]string, refusal *formRefusal) templates.PaymentForm {
	get := func(k string) string {
		if len(form[k]) > 0 {
			return form[k][0]
		}
		return ""
	}
	f := templates.PaymentForm{Amount: templates.Field{Value: get("amount")}, Note: templates.Field{Value: get("note")}, IdemKey: newKey()}
	for _, m := range st.MemberNames() {
		f.From = append(f.From, templates.Option{Value: m, Label: m, Selected: get("from") == m})
		f.To = append(f.To, templates.Option{Value: m, Label: m, Selected: get("to") == m})
	}
	if refusal != nil && refusal.payment == 0 {
		switch refusal.field {
		case "from":
			f.FromErr = refusal.msg
		case "to":
			f.ToErr = refusal.msg
		case "amount":
			f.Amount.Error = refusal.msg
		case "note":
			f.Note.Error = refusal.msg
		default:
			f.Error = refusal.msg
		}
	}
	return f
}

// paidKey is the key of a suggested payment's "paid" button, made of the
// tab it was suggested on (the group's version, the evenings counted) and
// the payment: two phones showing the same tab send the same key, and the
// second tap answers with the first payment instead of booking it twice.
// Hashed, since a key is ASCII and names need not be.
func paidKey(version int64, evenings, i int, from, to, amount string) string {
	h := sha256.Sum256(fmt.Appendf(nil, "%d\x00%d\x00%d\x00%s\x00%s\x00%s", version, evenings, i, from, to, amount))
	return "paid-" + hex.EncodeToString(h[:16])
}

// formRefusal is a refused payment (payment 0) or void, for the form to
// show next to its field.
type formRefusal struct {
	payment int
	field   string
	value   string
	msg     string
}

func (u ui) recordPayment(c echo.Context) error {
	form, err := formParams(c)
	if err != nil {
		return u.problem(c, err)
	}
	amount := strings.TrimSpace(form.Get("amount"))
	if err := thousands("amount", amount); err != nil {
		return u.tabRefused(c, form, err, 0)
	}
	if norm, err := i18n.NormalizeAmount(amount); err == nil {
		amount = norm
	}
	paid, err := u.svc.Groups().RecordPayment(c.Request().Context(), groupID(c), group.RecordPayment{From: form.Get("from"), To: form.Get("to"),
		Amount: amount, Note: form.Get("note"), State: form.Get("state")}, form.Get("idempotency_key"))
	if err == nil {
		return c.Redirect(http.StatusSeeOther, "/groups/"+groupID(c)+"/tab?paid="+strconv.Itoa(paid.Payment))
	}
	return u.tabRefused(c, form, err, 0)
}

func (u ui) voidPayment(c echo.Context) error {
	n, err := paymentNumber(c)
	if err != nil {
		return u.problem(c, err)
	}
	form, err := formParams(c)
	if err != nil {
		return u.problem(c, err)
	}
	err = u.svc.Groups().VoidPayment(c.Request().Context(), groupID(c), n, form.Get("reason"), "")
	if err == nil {
		// Said at the top, above what is owed now, as a payment saved is.
		return c.Redirect(http.StatusSeeOther, "/groups/"+groupID(c)+"/tab?voided="+strconv.Itoa(n))
	}
	return u.tabRefused(c, form, err, n)
}

// tabRefused shows the tab again with a refused payment or void next to
// its field; anything but bad input is a problem page.
func (u ui) tabRefused(c echo.Context, form map[string][]string, err error, payment int) error {
	pe, ok := problem.As(err)
	if !ok || pe.Kind != problem.Input {
		return u.problem(c, err)
	}
	v, verr := u.svc.Groups().View(c.Request().Context(), groupID(c))
	if verr != nil {
		return u.problem(c, verr)
	}
	r := &formRefusal{payment: payment, field: pe.Field, msg: u.localizer(c).Error(err)}
	if payment > 0 {
		r.value = strings.Join(form["reason"], "")
		form = nil
	}
	return render(c, http.StatusUnprocessableEntity, templates.Tab(u.tabView(c, v, form, r)))
}
