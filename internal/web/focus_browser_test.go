package web

import (
	"testing"

	"github.com/chromedp/chromedp"
)

// focused names the element that has the focus: its tag, name or class,
// and its text.
const focused = `(e => e.tagName.toLowerCase() + (e.name ? '[' + e.name + ']' : '') + (e.className ? '.' + e.className.split(' ').join('.') : '') + ' ' + e.textContent.trim().slice(0, 40))(document.activeElement)`

// onFirstMessage: the focus is on the page's first refusal.
const onFirstMessage = `document.activeElement === document.querySelector('.error[role=alert]')`

// Where the focus goes on a phone: a refusal's first message takes it (a
// screen reader reads it, the next Tab goes on from there), whether the
// queue sent the form or the whole page came back; a tap that shows the
// deal's form again for another contract or for tout keeps it on what was
// tapped, not at the page's top.
func TestBrowserFocusFollowsWhatHappened(t *testing.T) {
	h := newServer(t)
	base, _ := lanServer(t, h)
	ctx := browser(t, lanNames)
	run(t, ctx, "be a phone", asPhone("light"))
	id := createGame(t, h, `{"variant":"old-tapp","players":["Anna","Ben","Cleo"]}`)

	run(t, ctx, "tap solo", chromedp.Navigate(base+"/g/"+id+"/record?lang=en"), loaded(`document.querySelector('nav.contracts') !== null`),
		chromedp.Click(chromedp.CSS(`nav.contracts a.pick[href*="contract=solo"]`)), loaded(`location.search.includes('contract=solo')`))
	if got := value(t, ctx, "the focus after tapping solo", chromedp.Evaluate[string](focused)); got != "a.pick.selected Solo" {
		t.Fatalf("after tapping solo the focus is on %q", got)
	}
	run(t, ctx, "tick tout", chromedp.Click(chromedp.CSS(`input[name=tout]`)), loaded(`location.search.includes('tout=true')`))
	if got := value(t, ctx, "the focus after ticking tout", chromedp.Evaluate[string](focused)); got != "input[tout] " {
		t.Fatalf("after ticking tout the focus is on %q", got)
	}

	// Refused through the queue: the deal's form comes back in place.
	run(t, ctx, "save a solo without its declarer", chromedp.Navigate(base+"/g/"+id+"/record?contract=solo&lang=en"), loaded(`document.querySelector('form.deal') !== null`),
		chromedp.SetValue(chromedp.CSS(`#points`), "70"), chromedp.Click(chromedp.CSS(tap("trump", "clubs"))),
		chromedp.Evaluate[chromedp.Void](`document.querySelectorAll('form.deal [required]').forEach(e => e.required = false)`),
		chromedp.Click(chromedp.CSS(`form.deal button[type=submit]`)), loaded(`document.querySelector('.error[role=alert]') !== null`))
	if !value(t, ctx, "the focus after the refusal", chromedp.Evaluate[bool](onFirstMessage)) {
		t.Fatalf("after the refused deal the focus is on %q", value(t, ctx, "the focus", chromedp.Evaluate[string](focused)))
	}

	// Refused as a whole page: a new evening with a player named twice.
	run(t, ctx, "start an evening with Anna twice", chromedp.Navigate(base+"/new/old-tapp?lang=en"), loaded(`document.querySelector('form') !== null`),
		chromedp.Evaluate[chromedp.Void](`(ps => { ps[0].value = 'Anna'; ps[1].value = 'Ben'; ps[2].value = 'Anna'; })(document.querySelectorAll('input[name=player]'))`),
		chromedp.Click(chromedp.CSS(`form button[type=submit]`)), loaded(`document.querySelector('.error[role=alert]') !== null`))
	if !value(t, ctx, "the focus after the refused start", chromedp.Evaluate[bool](onFirstMessage)) {
		t.Fatalf("after the refused start the focus is on %q", value(t, ctx, "the focus", chromedp.Evaluate[string](focused)))
	}
}
