package web

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// Issue 36 "Done when": in old-tapp an undo, a retract-then-re-enter and a
// void, each played through the browser on a phone, with the pot on the
// page checked after each step against rules.md: a retract takes the
// dealer's stake back out of the pot (the same player deals again), a
// void (a misdeal) keeps it there and the turn passes.
func TestBrowserOldTappUndoRetractVoidPot(t *testing.T) {
	h := newServer(t)
	base, _ := lanServer(t, h)
	ctx := browser(t, lanNames)
	run(t, ctx, "be a phone", asPhone("light"))
	id := createGame(t, h, `{"variant":"old-tapp","players":["Anna","Ben","Cleo"],"unit":"0.50","currency":"EUR"}`)
	table := base + "/g/" + id + "?lang=en"
	record := func(hand, contract string, taps []string, points string) {
		t.Helper()
		acts := []chromedp.Action[chromedp.Void]{
			chromedp.Navigate(table), chromedp.WaitVisible(chromedp.CSS(`a.button.primary.big`)),
			chromedp.Click(chromedp.CSS(`a.button.primary.big`)), chromedp.WaitVisible(chromedp.CSS(`nav.contracts`)),
			chromedp.Click(chromedp.CSS(`a.pick[href="?contract=` + contract + `"]`)),
			chromedp.WaitReady(chromedp.CSS(`form.deal input[name=contract][value=` + contract + `]`)), chromedp.WaitVisible(chromedp.CSS(`form.deal button[type=submit]`)),
		}
		for _, s := range taps {
			acts = append(acts, chromedp.Click(chromedp.CSS(s)))
		}
		if points != "" {
			acts = append(acts, chromedp.SendKeys(chromedp.CSS(`#points`), points))
		}
		acts = append(acts, chromedp.Click(chromedp.CSS(`form.deal button[type=submit]`)), chromedp.WaitVisible(chromedp.CSS(`#hand-`+hand+`.fresh`)))
		run(t, ctx, "record deal "+hand+" "+contract, acts...)
	}
	pot := func(step, want string) {
		t.Helper()
		got := value(t, ctx, step+": the pot", chromedp.Evaluate[string](`document.querySelector('td[data-pot=units]').textContent.trim()`))
		if got != want {
			shot(t, ctx, "pot")
			t.Fatalf("%s: the page's pot is %q, want %s", step, got, want)
		}
		if l := do(t, h, "GET", "/api/games/"+id+"/ledger", "").json(t); l["pot"] != want {
			t.Fatalf("%s: the ledger's pot is %v, want %s", step, l["pot"], want)
		}
	}
	says := func(step, want string) {
		t.Helper()
		if text := value(t, ctx, step, chromedp.Evaluate[string](`document.querySelector("main").innerText`)); !strings.Contains(text, want) {
			t.Fatalf("%s: the page does not say %q:\n%s", step, want, text)
		}
	}

	// Deal 1, Anna deals (stake 2): Ben's coeurfrage of 73 wins from each
	// opponent; the pot holds Anna's stake.
	record("1", "coeurfrage", []string{tap("declarer", "Ben")}, "73")
	pot("deal 1", "2")
	// Deal 2, Ben deals: all pass, Ben's stake stays: 4.
	record("2", "pass", nil, "")
	pot("deal 2 passed", "4")

	// Undo (a retract) of deal 2, one tap: as if never recorded, Ben's stake
	// leaves the pot and Ben deals deal 2 again.
	run(t, ctx, "undo deal 2", chromedp.Click(chromedp.CSS(`form[action$="/hands/2/undo"] button`)),
		chromedp.WaitVisible(chromedp.CSS(`form[action$="/hands/2/redo"]`)))
	pot("deal 2 undone", "2")
	says("deal 2 undone", "Ben deals deal 2 again")

	// Re-entered as what was played: Anna's coeurfrage lost with 50, the
	// shortfall 10 ÷ 4 = 3 to each opponent and 3 into the pot, with Ben's
	// stake: 2 + 2 + 3 = 7. Still deal 2, still Ben's deal.
	record("2", "coeurfrage", []string{tap("declarer", "Anna")}, "50")
	pot("deal 2 re-entered", "7")
	if hands := listHands(t, h, id); len(hands) != 2 || hands[1]["dealer"] != "Ben" {
		t.Fatalf("after the re-entry: %v", hands)
	}
	says("deal 2 re-entered", "Cleo deals")

	// Voided as a misdeal, one tap for the reason: the deal no longer
	// counts, but Ben dealt it, so his stake stays: 7 − 3 = 4; Cleo deals
	// deal 3.
	run(t, ctx, "void deal 2 as a misdeal",
		chromedp.Navigate(base+"/g/"+id+"/hands/2?lang=en"), chromedp.WaitVisible(chromedp.CSS(`form[action$="/hands/2/void"]`)),
		chromedp.Click(chromedp.CSS(`form[action$="/hands/2/void"] input[name=reason_quick][value=misdeal]`)),
		chromedp.Click(chromedp.CSS(`form[action$="/hands/2/void"] button[type=submit]`)),
		chromedp.WaitVisible(chromedp.CSS(`td[data-pot=units]`)))
	pot("deal 2 voided", "4")
	says("deal 2 voided", "Misdeal")
	if l := do(t, h, "GET", "/api/games/"+id+"/ledger", "").json(t); l["dealer"] != "Cleo" || l["hands"] != 2.0 {
		t.Fatalf("after the void: %v deals, %v deals next; want 2 and Cleo", l["hands"], l["dealer"])
	}
}
