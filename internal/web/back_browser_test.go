package web

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// The back button after a save, and a reload of a form's address, bring
// back a form for the next deal, never the form just sent: saved, it
// records the next deal. The form once came back from the browser's cache
// as it was sent (deal 1, the used key), and an address that carried the
// key after another contract was chosen showed the next deal under the
// used key; saving either said only "This Idempotency-Key was already
// used", and went on saying it at every tap.
func TestBrowserBackAfterSave(t *testing.T) {
	h := newServer(t)
	base, _ := lanServer(t, h)
	ctx := browser(t, lanNames)
	run(t, ctx, "be a phone", asPhone("light"))
	z := createGame(t, h, zugerGame)
	record := base + "/g/" + z + "/record"
	run(t, ctx, "deal 1: solo, then super, saved",
		chromedp.Navigate(record+"?lang=de"), chromedp.WaitVisible(chromedp.CSS(`nav.contracts`)),
		chromedp.Click(chromedp.CSS(`a.pick[href="?contract=solo"]`)), chromedp.WaitVisible(chromedp.CSS(`form.deal`)),
		chromedp.Click(chromedp.CSS(tap("declarer", "Ben"))), chromedp.SendKeys(chromedp.CSS(`#points`), "70"),
		chromedp.Click(chromedp.CSS(tap("tricks", "5"))),
		chromedp.Click(chromedp.CSS(`a.pick[href="?contract=super"]`)), chromedp.WaitVisible(chromedp.CSS(`a.pick.selected[href="?contract=super"]`)))
	sentFrom := value(t, ctx, "the form's address", chromedp.Location())
	run(t, ctx, "save deal 1", chromedp.Click(chromedp.CSS(`form.deal button[type=submit]`)), chromedp.WaitVisible(chromedp.CSS(`#hand-1.fresh`)))

	// Back: the form for deal 2, empty, not deal 1's values again.
	run(t, ctx, "back", js(`history.back()`), chromedp.WaitReady(chromedp.CSS(`form.deal input[name=expected_hand][value="2"]`)))
	if kept := value(t, ctx, "what the form for deal 2 holds", chromedp.Evaluate[string](
		`location.search + [...document.querySelectorAll('form.deal input:checked, form.deal input[type=number], form.deal input[type=text]')].map(i => i.name + "=" + i.value).filter(s => !s.endsWith("=")).join("&")`)); strings.Contains(kept, "Ben") || strings.Contains(kept, "70") {
		t.Fatalf("the form the back button brought holds deal 1's values: %s", kept)
	}
	run(t, ctx, "record deal 2 from there",
		chromedp.Click(chromedp.CSS(`a.pick[href="?contract=tapp"]`)), chromedp.WaitVisible(chromedp.CSS(`a.pick.selected[href="?contract=tapp"]`)),
		chromedp.Click(chromedp.CSS(tap("declarer", "Cleo"))), chromedp.Clear(chromedp.CSS(`#points`)), chromedp.SendKeys(chromedp.CSS(`#points`), "80"),
		chromedp.Click(chromedp.CSS(tap("tricks", "6"))),
		chromedp.Click(chromedp.CSS(`form.deal button[type=submit]`)), chromedp.WaitVisible(chromedp.CSS(`#hand-2.fresh, p.error`)))
	if says := value(t, ctx, "the page", chromedp.Text(chromedp.ID(`main`))); strings.Contains(says, "Idempotency") || !strings.Contains(says, "Spiel 2 gespeichert") {
		shot(t, ctx, "back-then-save")
		t.Fatalf("saving the form the back button brought: %s", says)
	}

	// The address deal 1 was sent from, opened again (a reload): deal 3.
	run(t, ctx, "open the address again", chromedp.Navigate(sentFrom), chromedp.WaitReady(chromedp.CSS(`form.deal input[name=expected_hand][value="3"]`)),
		chromedp.Click(chromedp.CSS(`form.deal button[type=submit]`)), chromedp.WaitVisible(chromedp.CSS(`#hand-3.fresh, p.error`)))
	if says := value(t, ctx, "the page", chromedp.Text(chromedp.ID(`main`))); strings.Contains(says, "Idempotency") || !strings.Contains(says, "Spiel 3 gespeichert") {
		shot(t, ctx, "reload-then-save")
		t.Fatalf("saving the form at the address deal 1 was sent from: %s", says)
	}
	if hands := do(t, h, "GET", "/api/games/"+z+"/ledger", "").json(t)["hands"]; hands != 3.0 {
		t.Fatalf("the ledger has %v deals, want 3", hands)
	}
}
