package web

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// A field left empty is answered in the page's language, not the browser's
// (an English Chromium here, a Swedish or a German page): the cut's choice,
// the reopening's reason. Once filled in, the form is sent: no message
// outlives its cause.
func TestBrowserEmptyFieldSpeaksThePagesLanguage(t *testing.T) {
	h := newServer(t)
	base, _ := lanServer(t, h)
	ctx := browser(t, lanNames)
	run(t, ctx, "be a phone", asPhone("light"))
	id := startEvening(t, ctx, base, "old-tapp", []string{"Anna", "Ben", "Cleo"})
	recordDeal(t, ctx, 1, deal{contract: "pass"})
	recordDeal(t, ctx, 2, deal{contract: "pass"})
	run(t, ctx, "void deal 1 with a tapped reason, in German",
		chromedp.Navigate(base+"/g/"+id+"/hands/1?lang=de"), chromedp.WaitVisible(chromedp.CSS(`form.danger`)),
		chromedp.Click(chromedp.CSS(`form.danger `+tap("reason_quick", "misdeal"))),
		chromedp.Click(chromedp.CSS(`form.danger button[type=submit]`)),
		chromedp.WaitVisible(chromedp.CSS(`#hand-1.voided`)))

	run(t, ctx, "the close page in Swedish", chromedp.Navigate(base+"/g/"+id+"/close?lang=sv"), chromedp.WaitVisible(chromedp.CSS(`fieldset.picks`)))
	said := value(t, ctx, "close without the cut", chromedp.Evaluate[string](`(function(){var i=document.querySelector("fieldset.picks input");i.reportValidity();return i.validationMessage})()`))
	if said != "Välj ett av alternativen." {
		t.Fatalf("an unchosen cut on a Swedish page says %q", said)
	}
	// The voided deal's stake stays in the pot (a misdeal was dealt): one
	// unit is left over for the cut.
	run(t, ctx, "choose and close",
		chromedp.Click(chromedp.CSS(tap("remainder_to.1", "Ben"))),
		cutShown(),
		chromedp.Click(chromedp.CSS(`form button.primary`)),
		chromedp.WaitVisible(chromedp.CSS(`p.closed`)))

	run(t, ctx, "the closed evening in German", chromedp.Navigate(base+"/g/"+id+"/close?lang=de"), chromedp.WaitVisible(chromedp.CSS(`#reopen-form`)))
	said = value(t, ctx, "reopen without a reason", chromedp.Evaluate[string](`(function(){var i=document.querySelector("#reopen-form input[name=reason]");i.reportValidity();return i.validationMessage})()`))
	if said != "Bitte ausfüllen." {
		t.Fatalf("an empty reason on a German page says %q", said)
	}
	run(t, ctx, "reopen with a reason",
		chromedp.SendKeys(chromedp.CSS(`#reopen-form input[name=reason]`), "vergessen"),
		chromedp.Click(chromedp.CSS(`#reopen-form button[type=submit]`)),
		chromedp.WaitNotPresent(chromedp.CSS(`#reopen-form`)))
}

// Points no cards make are said as they are typed, in the server's words
// and the page's language, before the deal is saved: a deal saved while
// the server is away would otherwise be refused only once it is back,
// the deal long out of mind (rules.md: 0–120, never 1 or total−1).
func TestBrowserImpossiblePointsSaidWhileTyping(t *testing.T) {
	h := newServer(t)
	base, _ := lanServer(t, h)
	ctx := browser(t, lanNames)
	run(t, ctx, "be a phone", asPhone("light"))
	id := startEvening(t, ctx, base, "zuger", []string{"Anna", "Ben", "Cleo", "Dan"})
	said := func(what, points string) (string, bool) {
		t.Helper()
		run(t, ctx, what, chromedp.Clear(chromedp.CSS(`#points`)), chromedp.SendKeys(chromedp.CSS(`#points`), points))
		return text(t, ctx, `document.querySelector('output.other').textContent`),
			value(t, ctx, "marked", chromedp.Evaluate[bool](`document.querySelector('output.other').classList.contains('bad')`))
	}
	for _, c := range []struct {
		lang, points, want string
		bad                bool
	}{
		{"en", "150", "150 is outside 0–120, the card points in the pack.", true},
		{"en", "119", "119 would leave the other side exactly 1 point, and no set of cards is worth 1.", true},
		{"en", "1", "No set of cards is worth exactly 1 point.", true},
		{"en", "-1", "-1 is outside 0–120, the card points in the pack.", true},
		// Read as the server reads a number: whole, in digits.
		{"en", "12abc", "Enter a whole number.", true},
		{"en", "1.5", "Enter a whole number.", true},
		{"en", "１１９", "Enter a whole number.", true},
		{"en", "70", "The opponents have 50.", false},
		{"de", "121", "Die Augen müssen zwischen 0 und 120 liegen (alle Augen im Spiel), nicht 121.", true},
		{"sv", "1", "Inga kort är värda exakt 1 öga.", true},
		{"sv", "120", "Motspelarna har 0.", false},
	} {
		// Each row on a form of its own: no draft of the last row's typing.
		run(t, ctx, "the solo's form in "+c.lang, js(`sessionStorage.clear()`), chromedp.Navigate(base+"/g/"+id+"/record?contract=solo&lang="+c.lang), chromedp.WaitVisible(chromedp.CSS(`#points`)))
		got, bad := said("type "+c.points, c.points)
		if got != c.want || bad != c.bad {
			t.Errorf("%s, %s points typed: %q (marked %v), want %q (marked %v)", c.lang, c.points, got, bad, c.want, c.bad)
		}
	}

	// Typed for the opponents, 1 leaves the declarer's side 119.
	run(t, ctx, "the solo's form again", js(`sessionStorage.clear()`), chromedp.Navigate(base+"/g/"+id+"/record?contract=solo&lang=en"), chromedp.WaitVisible(chromedp.CSS(`#points`)),
		chromedp.Click(chromedp.CSS(tap("points_side", "opponents"))))
	if got, _ := said("1 for the opponents", "1"); got != "119 would leave the other side exactly 1 point, and no set of cards is worth 1." {
		t.Errorf("1 typed for the opponents: %q", got)
	}
	// Such a deal is not sent (nor, with the server away, kept to be
	// refused later): Save leaves it on the form, the points in focus.
	run(t, ctx, "save it", chromedp.Click(chromedp.CSS(tap("declarer", "Ben"))), chromedp.Click(chromedp.CSS(tap("tricks", "5"))),
		chromedp.Click(chromedp.CSS(`form.deal button[type=submit]`)))
	if where := text(t, ctx, `location.search + ' ' + document.activeElement.id + ' ' + (document.getElementById('queue').hidden ? 'nothing waits' : 'waits')`); where != "?contract=solo&lang=en points nothing waits" {
		t.Errorf("saved with 1 point for the opponents: %q", where)
	}
	if hands := strings.TrimSpace(do(t, h, "GET", "/api/games/"+id+"/hands", "").body); hands != "[]" {
		t.Fatalf("deals recorded from an impossible form: %s", hands)
	}
	// Sent without the script's check (as a deal kept from before it): the
	// server's own message beside the field, and not the hint again.
	run(t, ctx, "send it as a plain post", js(`HTMLFormElement.prototype.submit.call(document.querySelector('form.deal'))`), chromedp.WaitVisible(chromedp.CSS(`#points-error`)))
	if got := text(t, ctx, `document.getElementById('points-error').textContent + '|' + document.querySelector('output.other').textContent`); !strings.HasSuffix(got, "|") || !strings.Contains(got, "exactly 1 point") {
		t.Errorf("the server's refusal and the hint: %q", got)
	}
}
