package web

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// formHolds is what a deal's form holds as a person sees it: the buttons
// and boxes ticked, what the fields and the kontra show; hidden fields
// left out.
const formHolds = `[...document.querySelectorAll('form.deal input, form.deal select')]
	.filter(e => e.type !== 'hidden' && (e.type === 'radio' || e.type === 'checkbox' ? e.checked : e.value !== ''))
	.map(e => e.name + '=' + e.value).join('&')`

// drafts lists the drafts the tab keeps, by name.
const drafts = `Object.keys(sessionStorage).filter(k => k.startsWith('tappbook.draft:')).map(k => k.slice(15)).sort().join(' ')`

// loaded waits until a page, and the script's work on it, is done and
// cond holds. A page the script sends on to another address is waited out:
// its script context goes away as the next page comes.
func loaded(cond string) chromedp.Action[chromedp.Void] {
	return func(ctx context.Context, tg *chromedp.Target) (chromedp.Void, error) {
		for {
			ok, err := chromedp.Evaluate[bool](`document.readyState === 'complete' && (`+cond+`)`)(ctx, tg)
			if err == nil && ok {
				return chromedp.Void{}, nil
			}
			select {
			case <-ctx.Done():
				return chromedp.Void{}, fmt.Errorf("waiting for %s: %w (last: %v)", cond, ctx.Err(), err)
			case <-time.After(50 * time.Millisecond):
			}
		}
	}
}

// handRecord is deal n's record as the API gives it.
func handRecord(t *testing.T, h http.Handler, id string, n int) map[string]any {
	t.Helper()
	var hands []struct {
		Hand   int            `json:"hand"`
		Record map[string]any `json:"record"`
	}
	r := do(t, h, "GET", "/api/games/"+id+"/hands", "").body
	if err := json.Unmarshal([]byte(r), &hands); err != nil {
		t.Fatalf("hands: %v: %s", err, r)
	}
	for _, h := range hands {
		if h.Hand == n {
			return h.Record
		}
	}
	t.Fatalf("no deal %d in %s", n, r)
	return nil
}

// A deal's form half filled in is back after a reload, and after leaving
// it and coming back in the same tab, on a phone over plain HTTP: its
// inputs are autocomplete="off" (the back button must never show a deal
// already sent as unsent), so the page keeps a draft in the tab's
// sessionStorage, under the game and the deal the form is for. Once the
// deal is saved the next deal's form is empty; a correction form never gets
// a new deal's draft, nor the hidden form key; a correction's draft is
// kept the same way and goes once it is saved.
func TestBrowserDraftSurvivesReload(t *testing.T) {
	h := newServer(t)
	base, _ := lanServer(t, h)
	ctx := browser(t, lanNames)
	run(t, ctx, "be a phone", asPhone("light"))
	z := createGame(t, h, zugerGame)
	record := base + "/g/" + z + "/record"

	// Part of deal 1: solo, Ben, 70 for the opponents; no tricks yet.
	run(t, ctx, "fill part of deal 1",
		chromedp.Navigate(record+"?lang=en"), chromedp.WaitVisible(chromedp.CSS(`nav.contracts`)),
		chromedp.Click(chromedp.CSS(`a.pick[href="?contract=solo"]`)), chromedp.WaitVisible(chromedp.CSS(`a.pick.selected[href="?contract=solo"]`)),
		chromedp.Click(chromedp.CSS(tap("declarer", "Ben"))), chromedp.Click(chromedp.CSS(tap("points_side", "opponents"))),
		chromedp.SendKeys(chromedp.CSS(`#points`), "70"))
	const half = "declarer=Ben&points=70&points_side=opponents&tricks="
	if got := value(t, ctx, "the form", chromedp.Evaluate[string](formHolds)); got != half {
		t.Fatalf("before the reload the form holds %q, want %q", got, half)
	}
	keyBefore := value(t, ctx, "the form's key", chromedp.Evaluate[string](`document.querySelector('form.deal input[name=idempotency_key]').value`))
	kept := value(t, ctx, "the draft", chromedp.Evaluate[string](`JSON.stringify(JSON.parse(sessionStorage.getItem('tappbook.draft:`+z+`/new/1')))`))
	for _, hidden := range []string{"idempotency_key", "form_token", "expected_hand", keyBefore} {
		if strings.Contains(kept, hidden) {
			t.Fatalf("the draft keeps the hidden %q: %s", hidden, kept)
		}
	}

	// A reload: what was tapped and typed is back, and the other side's
	// points are shown for it (the script that shows them ran after).
	run(t, ctx, "reload", chromedp.Reload(), loaded(`document.querySelector('form.deal') !== null`))
	if got := value(t, ctx, "the form after the reload", chromedp.Evaluate[string](formHolds)); got != half {
		shot(t, ctx, "draft-after-reload")
		t.Fatalf("after the reload the form holds %q, want %q", got, half)
	}
	if other := value(t, ctx, "the other side's points", chromedp.Evaluate[string](`document.querySelector('output.other').textContent`)); other != "The declarer's side has 50." {
		t.Fatalf("after the reload the form says %q of the other side", other)
	}
	if key := value(t, ctx, "the form's key", chromedp.Evaluate[string](`document.querySelector('form.deal input[name=idempotency_key]').value`)); key == keyBefore || key == "" {
		t.Fatalf("the reloaded form has the key %q (before: %q): a hidden field was put back", key, keyBefore)
	}

	// To the table and back by "Record deal 1": the form's bare address
	// shows no contract; the draft's is asked for, and the draft is back.
	run(t, ctx, "leave and come back",
		chromedp.Navigate(base+"/g/"+z), chromedp.Click(chromedp.CSS(`a.button.primary[href$="/record"]`)),
		loaded(`location.search.includes('contract=solo') && document.querySelector('form.deal') !== null`))
	if got := value(t, ctx, "the form after coming back", chromedp.Evaluate[string](formHolds)); got != half {
		shot(t, ctx, "draft-after-return")
		t.Fatalf("coming back, the form holds %q, want %q", got, half)
	}

	// Sent with every trick but not every point: refused by the server, the
	// form comes back with what was sent, which is the draft again (a
	// reload still has it).
	const refused = "declarer=Ben&points=70&points_side=opponents&tricks=8"
	run(t, ctx, "send deal 1 with every trick", chromedp.Click(chromedp.CSS(tap("tricks", "8"))),
		chromedp.Click(chromedp.CSS(`form.deal button[type=submit]`)),
		chromedp.WaitVisible(chromedp.CSS(`#points-error`)), chromedp.Reload(), loaded(`document.querySelector('form.deal') !== null`))
	if got := value(t, ctx, "the form after the refusal", chromedp.Evaluate[string](formHolds)); got != refused {
		shot(t, ctx, "draft-after-refusal")
		t.Fatalf("refused and reloaded, the form holds %q, want %q", got, refused)
	}
	if n := len(listHands(t, h, z)); n != 0 {
		t.Fatalf("the refused deal was kept: %d deals", n)
	}

	// Saved: the deal is what the form held, and the draft is gone.
	run(t, ctx, "save deal 1", chromedp.Click(chromedp.CSS(tap("tricks", "5"))),
		chromedp.Click(chromedp.CSS(`form.deal button[type=submit]`)), chromedp.WaitVisible(chromedp.CSS(`#hand-1.fresh`)))
	if rec := handRecord(t, h, z, 1); fmt.Sprintf("%v %v %v", rec["declarer"], rec["points"], rec["tricks"]) != "Ben 50 5" {
		t.Fatalf("deal 1 was recorded as %v", rec)
	}
	if left := value(t, ctx, "the drafts", chromedp.Evaluate[string](drafts)); left != "" {
		t.Fatalf("deal 1 saved, the tab still keeps the drafts %q", left)
	}

	// The next deal's form: empty, at its bare address and for solo.
	run(t, ctx, "open deal 2's form", chromedp.Click(chromedp.CSS(`a.button.primary[href$="/record"]`)),
		loaded(`document.querySelector('nav.contracts') !== null`))
	if where := value(t, ctx, "where", chromedp.Evaluate[string](`location.search + (document.querySelector('form.deal') ? ' with a form' : '')`)); where != "" {
		t.Fatalf("deal 2's bare address went on to %q", where)
	}
	run(t, ctx, "solo for deal 2", chromedp.Click(chromedp.CSS(`a.pick[href="?contract=solo"]`)),
		loaded(`document.querySelector('a.pick.selected[href="?contract=solo"]') !== null`))
	if got := value(t, ctx, "deal 2's form", chromedp.Evaluate[string](formHolds)); got != "points_side=declarer&tricks=" {
		t.Fatalf("deal 2's form holds %q, want it empty", got)
	}

	// Part of deal 2 here; then another phone records deal 2. The
	// correction forms of deals 2 and 1 show their records, never the
	// draft of a new deal 2.
	run(t, ctx, "fill part of deal 2", chromedp.Click(chromedp.CSS(tap("declarer", "Cleo"))), chromedp.SendKeys(chromedp.CSS(`#points`), "80"))
	if left := value(t, ctx, "the drafts", chromedp.Evaluate[string](drafts)); left != z+"/new/2" {
		t.Fatalf("the tab keeps the drafts %q, want deal 2's", left)
	}
	if r := do(t, h, "POST", "/api/games/"+z+"/hands", `{"contract":"tapp","declarer":"Dan","points":70,"tricks":5,"expected_hand":2}`); r.status != 201 {
		t.Fatalf("the other phone records deal 2: %d %s", r.status, r.body)
	}
	for _, c := range []struct {
		n    int
		want string
	}{{2, "declarer=Dan&points=70&points_side=declarer&tricks=5"}, {1, "declarer=Ben&points=50&points_side=declarer&tricks=5"}} {
		run(t, ctx, fmt.Sprintf("correct deal %d", c.n), chromedp.Navigate(fmt.Sprintf("%s/g/%s/hands/%d", base, z, c.n)), loaded(`document.querySelector('form.deal') !== null`))
		if got := value(t, ctx, "the correction form", chromedp.Evaluate[string](formHolds)); got != c.want {
			shot(t, ctx, fmt.Sprintf("correct-%d", c.n))
			t.Fatalf("the correction form of deal %d holds %q, want its record %q", c.n, got, c.want)
		}
	}

	// A correction half done is kept too: reloaded, it is back (the void
	// form below it keeps nothing); saved, it is gone.
	run(t, ctx, "correct part of deal 1",
		chromedp.Clear(chromedp.CSS(`#points`)), chromedp.SendKeys(chromedp.CSS(`#points`), "55"),
		chromedp.SendKeys(chromedp.CSS(`form.deal input[name=reason]`), "recounted"),
		chromedp.Reload(), loaded(`document.querySelector('form.deal') !== null`))
	const corrected = "declarer=Ben&points=55&points_side=declarer&tricks=5&reason=recounted"
	if got := value(t, ctx, "the correction after the reload", chromedp.Evaluate[string](formHolds)); got != corrected {
		t.Fatalf("after the reload the correction holds %q, want %q", got, corrected)
	}
	if void := value(t, ctx, "the void form", chromedp.Evaluate[string](`document.querySelector('form.danger input[name=reason]').value`)); void != "" {
		t.Fatalf("the void form holds %q", void)
	}
	run(t, ctx, "save the correction", chromedp.Click(chromedp.CSS(`form.deal button[type=submit]`)), chromedp.WaitVisible(chromedp.CSS(`#hand-1`)))
	if rec := handRecord(t, h, z, 1); fmt.Sprintf("%v %v", rec["declarer"], rec["points"]) != "Ben 55" {
		t.Fatalf("deal 1 was corrected to %v", rec)
	}
	run(t, ctx, "correct deal 1 again", chromedp.Navigate(base+"/g/"+z+"/hands/1"), loaded(`document.querySelector('form.deal') !== null`))
	if got := value(t, ctx, "the correction form", chromedp.Evaluate[string](formHolds)); got != "declarer=Ben&points=55&points_side=declarer&tricks=5" {
		t.Fatalf("after the correction its form holds %q", got)
	}
	// Deal 3's form: deal 2's draft, recorded elsewhere, is let go.
	run(t, ctx, "open deal 3's form", chromedp.Navigate(record), loaded(`document.querySelector('nav.contracts') !== null`))
	if left := value(t, ctx, "the drafts", chromedp.Evaluate[string](drafts)); left != "" {
		t.Fatalf("at deal 3 the tab still keeps the drafts %q", left)
	}
}

// The rest of what a draft keeps: a Ramsch's boxes and counts, with the
// last player's counts shown from them; kontra set by the stepper, on a
// form shown at its bare address (Matzlfangen's rufen).
func TestBrowserDraftBoxesAndKontra(t *testing.T) {
	h := newServer(t)
	base, _ := lanServer(t, h)
	ctx := browser(t, lanNames)
	run(t, ctx, "be a phone", asPhone("light"))

	w := createGame(t, h, `{"variant":"wuerttemberg","players":["Anna","Ben","Cleo"],"unit":"0.01","currency":"EUR"}`)
	run(t, ctx, "fill part of a Ramsch",
		chromedp.Navigate(base+"/g/"+w+"/record?contract=ramsch&lang=en"), chromedp.WaitVisible(chromedp.CSS(`fieldset.ramsch`)),
		chromedp.SendKeys(chromedp.CSS(`input[name=ramsch_points_0]`), "50"), chromedp.SendKeys(chromedp.CSS(`input[name=ramsch_tricks_0]`), "5"),
		chromedp.Click(chromedp.CSS(`input[name=ramsch_none_2]`)),
		chromedp.Reload(), loaded(`document.querySelector('fieldset.ramsch') !== null`))
	if got := value(t, ctx, "the Ramsch after the reload", chromedp.Evaluate[string](formHolds)); got != "ramsch_points_0=50&ramsch_tricks_0=5&ramsch_none_2=true" {
		shot(t, ctx, "ramsch-draft")
		t.Fatalf("after the reload the Ramsch holds %q", got)
	}
	shown := value(t, ctx, "what the Ramsch shows", chromedp.Evaluate[string](
		`document.querySelector('input[name=ramsch_points_1]').placeholder + ' ' + document.querySelector('input[name=ramsch_tricks_1]').placeholder + ' ' + document.querySelector('output.most').textContent`))
	if shown != "70 6 Most points: Ben" {
		t.Fatalf("after the reload the Ramsch shows %q for Ben, want 70, 6 and the most points", shown)
	}

	m := createGame(t, h, `{"variant":"matzlfangen","players":["Anna","Ben","Cleo","Dan"],"unit":"0.50","currency":"EUR"}`)
	run(t, ctx, "fill part of a rufen",
		chromedp.Navigate(base+"/g/"+m+"/record?lang=en"), chromedp.WaitVisible(chromedp.CSS(`.stepper`)),
		chromedp.Click(chromedp.CSS(tap("partner", "Dan"))), chromedp.Click(chromedp.CSS(tap("matzl", "defenders"))),
		// The stepper last: what it sets is kept, not only what is
		// tapped after it.
		chromedp.Click(chromedp.CSS(`.stepper button:last-child`)), chromedp.Click(chromedp.CSS(`.stepper button:last-child`)),
		chromedp.Reload(), loaded(`document.querySelector('.stepper') !== null`))
	if got := value(t, ctx, "the rufen after the reload", chromedp.Evaluate[string](formHolds)); got != "partner=Dan&trump=&points_side=declarer&tricks=&kontra=2&matzl=defenders" {
		shot(t, ctx, "kontra-draft")
		t.Fatalf("after the reload the rufen holds %q", got)
	}
	if where := value(t, ctx, "where", chromedp.Evaluate[string](`location.search`)); where != "?lang=en" {
		t.Fatalf("the rufen form went on to %q", where)
	}
	// The stepper's buttons are named in the page's language.
	run(t, ctx, "the rufen in German", chromedp.Navigate(base+"/g/"+m+"/record?lang=de"), chromedp.WaitVisible(chromedp.CSS(`.stepper`)))
	if names := value(t, ctx, "the stepper's names", chromedp.Evaluate[string](
		`[...document.querySelectorAll('.stepper button')].map(b => b.getAttribute('aria-label')).join(' / ')`)); names != "Eine Kontrastufe weniger / Eine Kontrastufe mehr" {
		t.Fatalf("the German stepper's buttons are named %q", names)
	}
	// The label names the select, not the − button the script put first
	// in it: a tap on "Kontra" leaves the kontra as it was.
	// Its name is the word alone, not the − and + buttons' names the
	// script put in the label beside it.
	kontra := `(s => (document.querySelector('label.kontra').control === s) + ' ' + s.value + ' ' + document.getElementById(s.getAttribute('aria-labelledby')).textContent)(document.querySelector('select[name=kontra]'))`
	run(t, ctx, "raise the kontra", chromedp.Click(chromedp.CSS(`.stepper button:last-child`)))
	before := value(t, ctx, "the kontra", chromedp.Evaluate[string](kontra))
	run(t, ctx, "tap the kontra's label", chromedp.Click(chromedp.CSS(`.kontra-label`)))
	if after := value(t, ctx, "the kontra after a tap on its label", chromedp.Evaluate[string](kontra)); !strings.HasPrefix(before, "true ") || !strings.HasSuffix(before, " Kontra") || after != before {
		t.Fatalf("the kontra label names the select, and the kontra: %q before a tap on it, %q after", before, after)
	}
}

// A deal refused and left for the table comes back filled in on its form
// (the draft), and the form says so, with a tap that clears it: a tester
// changed what was in sight, missed the matzl left far down the form, and
// saved the refused deal's choice as the next deal's.
func TestBrowserDraftBackSaysSoAndClears(t *testing.T) {
	h := newServer(t)
	base, _ := lanServer(t, h)
	ctx := browser(t, lanNames)
	run(t, ctx, "be a phone", asPhone("light"))
	z := createGame(t, h, zugerGame)
	run(t, ctx, "deal 1 with every trick but not every point",
		chromedp.Navigate(base+"/g/"+z+"/record?contract=solo&lang=de"), chromedp.WaitVisible(chromedp.CSS(`#points`)),
		chromedp.Click(chromedp.CSS(tap("declarer", "Ben"))), chromedp.SendKeys(chromedp.CSS(`#points`), "100"),
		chromedp.Click(chromedp.CSS(tap("tricks", "8"))),
		chromedp.Click(chromedp.CSS(`form.deal button[type=submit]`)), chromedp.WaitVisible(chromedp.CSS(`#points-error`)))
	if back := text(t, ctx, `(document.querySelector('p.draft-back')||{}).textContent||''`); back != "" {
		t.Fatalf("the server's own answer to the form says %q: it is no draft put back", back)
	}
	run(t, ctx, "to the table and back",
		chromedp.Navigate(base+"/g/"+z), chromedp.Click(chromedp.CSS(`a.button.primary[href$="/record"]`)),
		loaded(`location.search.includes('contract=solo') && document.querySelector('form.deal') !== null`))
	const refused = "declarer=Ben&points=100&points_side=declarer&tricks=8"
	if got := value(t, ctx, "the form", chromedp.Evaluate[string](formHolds)); got != refused {
		t.Fatalf("the form holds %q, want the draft %q", got, refused)
	}
	if back := text(t, ctx, `(document.querySelector('p.draft-back')||{}).textContent||''`); back != "Ausgefüllt mit dem, was auf diesem Telefon schon eingegeben war: prüfen oder das Formular leeren. Formular leeren" {
		t.Fatalf("the form filled in from its draft says %q", back)
	}
	run(t, ctx, "clear the form", chromedp.Click(chromedp.CSS(`p.draft-back button`)))
	if got := value(t, ctx, "the cleared form", chromedp.Evaluate[string](formHolds)); got != "points_side=declarer&tricks=" {
		t.Fatalf("the cleared form holds %q", got)
	}
	if left := text(t, ctx, `document.querySelector('p.draft-back') ? 'shown' : ''`) + text(t, ctx, `document.querySelector('output.other').textContent`); left != "" {
		t.Fatalf("after clearing, still said: %q", left)
	}
	run(t, ctx, "reload", chromedp.Reload(), loaded(`document.querySelector('form.deal') !== null`))
	if got := value(t, ctx, "the form reloaded", chromedp.Evaluate[string](formHolds)); got != "points_side=declarer&tricks=" || text(t, ctx, `document.querySelector('p.draft-back') ? 'shown' : ''`) != "" {
		t.Fatalf("cleared and reloaded, the form holds %q (or says it was filled in)", got)
	}
}

// A Ramsch's form cleared: its counts and what they showed (who has the
// most points, the last player's counts as placeholders) go with them,
// and no draft is left for the next time Record is tapped.
func TestBrowserDraftClearedRamsch(t *testing.T) {
	h := newServer(t)
	base, _ := lanServer(t, h)
	ctx := browser(t, lanNames)
	run(t, ctx, "be a phone", asPhone("light"))
	id := createGame(t, h, `{"variant":"wuerttemberg","players":["Anna","Ben","Cleo"]}`)
	run(t, ctx, "part of a Ramsch",
		chromedp.Navigate(base+"/g/"+id+"/record?contract=ramsch&lang=en"), chromedp.WaitVisible(chromedp.CSS(`fieldset.ramsch`)),
		chromedp.SendKeys(chromedp.CSS(`input[name=ramsch_points_0]`), "50"), chromedp.SendKeys(chromedp.CSS(`input[name=ramsch_tricks_0]`), "4"),
		chromedp.Click(chromedp.CSS(`input[name=ramsch_none_1]`)))
	shown := `document.querySelector('output.most').textContent + '|' + [...document.querySelectorAll('fieldset.ramsch input')].map(i => i.placeholder).join('')`
	if got := text(t, ctx, shown); !strings.HasPrefix(got, "Most points: Cleo|") {
		t.Fatalf("the Ramsch's helpers before the reload: %q", got)
	}
	run(t, ctx, "reload, and clear", chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS(`p.draft-back button`)),
		chromedp.Click(chromedp.CSS(`p.draft-back button`)))
	if got := value(t, ctx, "the cleared form", chromedp.Evaluate[string](formHolds)); got != "" {
		t.Fatalf("the cleared Ramsch holds %q", got)
	}
	if got := text(t, ctx, shown); got != "|" {
		t.Fatalf("the cleared Ramsch still shows %q", got)
	}
	run(t, ctx, "to the table and Record", chromedp.Navigate(base+"/g/"+id), chromedp.Click(chromedp.CSS(`a.button.primary[href$="/record"]`)),
		loaded(`document.querySelector('nav.contracts') !== null`))
	if where := text(t, ctx, `location.search + (document.querySelector('p.draft-back') ? ' said' : '')`); where != "" {
		t.Fatalf("Record after clearing opened %q", where)
	}
}
