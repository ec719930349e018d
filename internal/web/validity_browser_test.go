package web

import (
	"testing"

	"github.com/chromedp/chromedp"
)

// A field left empty is answered in the page's language, not the browser's
// (an English Chromium here, a German page): the void's reason, the cut's
// choice. Once filled in, the form is sent: no message outlives its cause.
func TestBrowserEmptyFieldSpeaksThePagesLanguage(t *testing.T) {
	h := newServer(t)
	base, _ := lanServer(t, h)
	ctx := browser(t, lanNames)
	run(t, ctx, "be a phone", asPhone("light"))
	id := startEvening(t, ctx, base, "old-tapp", []string{"Anna", "Ben", "Cleo"})
	recordDeal(t, ctx, 1, deal{contract: "pass"})
	recordDeal(t, ctx, 2, deal{contract: "pass"})

	run(t, ctx, "open deal 1 in German", chromedp.Navigate(base+"/g/"+id+"/hands/1?lang=de"), chromedp.WaitVisible(chromedp.CSS(`form.danger`)))
	said := value(t, ctx, "void without a reason", chromedp.Evaluate[string](`(function(){var i=document.querySelector("form.danger input[name=reason]");i.reportValidity();return i.validationMessage})()`))
	if said != "Bitte ausfüllen." {
		t.Fatalf("an empty reason on a German page says %q", said)
	}
	run(t, ctx, "void with a reason",
		chromedp.SendKeys(chromedp.CSS(`form.danger input[name=reason]`), "vergeben"),
		chromedp.Click(chromedp.CSS(`form.danger button[type=submit]`)),
		chromedp.WaitVisible(chromedp.CSS(`#hand-1.voided`)))

	run(t, ctx, "the close page in Swedish", chromedp.Navigate(base+"/g/"+id+"/close?lang=sv"), chromedp.WaitVisible(chromedp.CSS(`fieldset.picks`)))
	said = value(t, ctx, "close without the cut", chromedp.Evaluate[string](`(function(){var i=document.querySelector("fieldset.picks input");i.reportValidity();return i.validationMessage})()`))
	if said != "Välj ett av alternativen." {
		t.Fatalf("an unchosen cut on a Swedish page says %q", said)
	}
	run(t, ctx, "choose and close",
		chromedp.Click(chromedp.CSS(tap("remainder_to.1", "Ben"))),
		chromedp.Click(chromedp.CSS(tap("remainder_to.2", "Ben"))),
		chromedp.Click(chromedp.CSS(`form button.primary`)),
		chromedp.WaitVisible(chromedp.CSS(`p.closed`)))
}
