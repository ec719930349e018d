package group

import "tappbook/internal/problem"

// Messages is the group's catalogue of refusals, for translators.
func Messages() problem.Catalogue { return catalogue }

// catalogue holds what a group refuses and why, in English printf formats;
// the UI translates the same codes. Names, amounts, the unit and the
// currency are refused with the messages games use for them.
var catalogue = problem.NewCatalogue(map[string]string{
	"notfound.group":                   "there is no group with this id; check the link",
	"notfound.payment":                 "there is no payment %d in this group",
	"notfound.payment-number":          "there is no payment %q in this group; payments are numbered from 1",
	"group.name-missing":               "name: give the group a name, such as Thursday table",
	"member.spelled":                   "players: %q is a member of this group written %q; write the name the same way",
	"evening.unit":                     "unit: one unit of this group's evenings is worth %s, not %s; leave unit out to play for the group's",
	"evening.currency":                 "currency: this group's evenings play in %s, not %q; leave currency out to play in the group's",
	"evening.no-currency":              "currency: this group's evenings play without a currency, not in %q; leave currency out",
	"conflict.evening-joined":          "game %s is already an evening of this group",
	"payment.from-missing":             "from: say which member paid",
	"payment.to-missing":               "to: say which member was paid",
	"payment.not-member":               "%s: %q is not a member of this group; the members are %s",
	"payment.no-members":               "%s: %q is not a member of this group, which has no members yet",
	"payment.self":                     "to: %s cannot pay themselves; name the member who was paid",
	"payment.amount-missing":           "amount: give the amount paid, such as 3.50",
	"payment.amount-positive":          "amount: %s is not above 0; a payment goes from the member who paid to the member who was paid",
	"payment.places":                   "amount: %s has more decimal places than this group's money, which has %d",
	"payment.void-reason":              "reason: say why this payment is voided, for the history",
	"conflict.payment-voided":          "payment %d is already voided",
	"notfound.member":                  "%q is not a member of this group",
	"payment.state":                    "state: %q is not a payment's state; leave it out for a payment made, or send \"paid\" for one its payee is to confirm",
	"payment.by-missing":               "by: say who you are; the member who was paid confirms",
	"conflict.payment-confirmed-by":    "payment %d goes from %s to %s, so only %[3]s can say it arrived, not %[4]s",
	"conflict.payment-confirmed-twice": "payment %d was already confirmed by %s",
	"conflict.payment-received":        "payment %d was recorded as made; there is nothing to confirm",
})
