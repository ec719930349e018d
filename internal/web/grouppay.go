package web

import (
	"strconv"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"tappbook/internal/game"
	"tappbook/internal/group"
	"tappbook/internal/i18n"
	"tappbook/internal/payqr"
	"tappbook/templates"
)

// tabPayWays gives a tab's transfer i the payee's QR code and PayPal.me
// link, if the payee said how to be paid. Only on the group's own link:
// how a member is paid (an IBAN, an address, a phone number) is for the
// ones who pay, not for whoever holds the read-only link (api.md).
func tabPayWays(tv *templates.TabTransfer, loc i18n.Localizer, st *group.State, to string, amount decimal.Decimal, i int, root string) {
	ways := payqr.Ways(payment(game.GroupPayees(st), to, amount, st.Currency, time.Now()))
	var kinds []string
	for _, w := range ways {
		kinds = append(kinds, loc.T("pay.way."+w.Kind))
		if w.Kind == payqr.KindPayPal {
			tv.PayPal = w.Text
		}
	}
	if len(ways) > 0 {
		tv.QR = root + "/api/groups/" + st.ID + "/pay/" + strconv.Itoa(i) + ".png"
		tv.Ways = strings.Join(kinds, " · ")
	}
}

// paymentState says whether a payment recorded as sent has arrived.
func paymentState(pv *templates.PaymentView, loc i18n.Localizer, pm *group.Payment) {
	switch {
	case pm.State != group.PaymentPaid:
		return
	case pm.ConfirmedBy != "":
		pv.State = "confirmed"
	default:
		pv.State = group.PaymentPaid
	}
	pv.StateText = loc.T("pay.state." + pv.State)
	pv.MarkArrived = loc.T("pay.mark-received", pm.To)
}
