package web

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// formState is what a refused form shows: the messages beside its fields,
// and the fields marked invalid (a group of choices by its fieldset).
type formState struct {
	Said   []string `json:"said"`
	Marked []string `json:"marked"`
}

const formStateScript = `(() => ({
  said: [...document.querySelectorAll("#main p.error")].map(p => p.textContent.trim()),
  marked: [...document.querySelectorAll("#main [aria-invalid]:not([aria-invalid=false])")].map(e => e.tagName === "FIELDSET" ? "fieldset." + e.className.trim().replace(/ +/g, ".") : e.getAttribute("name"))
}))()`

// sendRefused sends a form (its submit button) and waits for the server's
// answer put in place of the page, with its messages.
func sendRefused(t *testing.T, ctx context.Context, what, button string) formState {
	t.Helper()
	run(t, ctx, what,
		js(`document.getElementById("main").dataset.old = "1"`),
		chromedp.Click(chromedp.CSS(button)),
		chromedp.WaitVisible(chromedp.CSS(`#main:not([data-old]) p.error`)))
	return value(t, ctx, what+": read the form", chromedp.Evaluate[formState](formStateScript))
}

// without is list with the items of drop taken out, once each.
func without(list []string, drop ...string) []string {
	out := slices.Clone(list)
	for _, d := range drop {
		if i := slices.Index(out, d); i >= 0 {
			out = slices.Delete(out, i, i+1)
		}
	}
	return out
}

// changeField makes one change to a refused form and checks that exactly
// the messages of the field changed (said) and its invalid marking
// (marked) went, at once, and every other field's stayed. A message given
// as "#id" is read from the page.
func changeField(t *testing.T, ctx context.Context, what string, said, marked []string, change ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	before := value(t, ctx, what+": read the form", chromedp.Evaluate[formState](formStateScript))
	var texts []string
	for _, s := range said {
		if strings.HasPrefix(s, "#") {
			s = value(t, ctx, what+": read "+s, chromedp.Evaluate[string](`(document.querySelector("`+s+`") || {textContent: "(none)"}).textContent.trim()`))
		}
		if !slices.Contains(before.Said, s) {
			t.Fatalf("%s: before the change the form does not say %q: %q", what, s, before.Said)
		}
		texts = append(texts, s)
	}
	for _, m := range marked {
		if !slices.Contains(before.Marked, m) {
			t.Fatalf("%s: before the change %s is not marked invalid: %q", what, m, before.Marked)
		}
	}
	run(t, ctx, what, change...)
	after := value(t, ctx, what+": read the form again", chromedp.Evaluate[formState](formStateScript))
	if want := without(before.Said, texts...); !slices.Equal(after.Said, want) {
		shot(t, ctx, "field-messages")
		t.Errorf("%s: the form says %q, want %q", what, after.Said, want)
	}
	if want := without(before.Marked, marked...); !slices.Equal(after.Marked, want) {
		t.Errorf("%s: marked invalid %q, want %q", what, after.Marked, want)
	}
}

// A message beside a field of the record form, sent back by the server,
// goes as soon as the field is changed, and so does the field's invalid
// marking; the other fields' messages stay until the next send. On the
// Ramsch form sent empty, "Augen von Anna eingeben." stayed under Anna's
// points once typed. Every kind of field's message: a Ramsch count, a
// Jungfer's row, the whole Ramsch's sum, declarer, points, tricks, won or
// lost, the tricks of a lost deal, trump, partner, kontra, Matzl, the
// correction's reason and the void's. Without JavaScript the messages are
// the server's, as before.
func TestBrowserFieldMessagesGoWhenChanged(t *testing.T) {
	h := newServer(t)
	base, _ := lanServer(t, h)
	ctx := browser(t, lanNames)
	run(t, ctx, "be a phone", asPhone("light"))
	four := `"players":["Anna","Ben","Cleo","Dan"],"unit":"0.50","currency":"EUR"`
	submit := `form.deal button[type=submit]`
	open := func(what, path string) {
		t.Helper()
		run(t, ctx, what, chromedp.Navigate(base+path), chromedp.WaitVisible(chromedp.CSS(`form.deal`)))
	}

	// Ramsch, sent empty, in German: Anna's points are asked for.
	w := createGame(t, h, `{"variant":"wuerttemberg",`+four+`}`)
	open("the Ramsch form", "/g/"+w+"/record?contract=ramsch&lang=de")
	sendRefused(t, ctx, "send the Ramsch empty", submit)
	changeField(t, ctx, "type Anna's points", []string{"Augen von Anna eingeben."}, []string{"ramsch_points_0"},
		chromedp.SendKeys(chromedp.CSS(`input[name=ramsch_points_0]`), "50"))
	// Two counts refused: each message goes with its own count.
	run(t, ctx, "type two counts that are no numbers", chromedp.SendKeys(chromedp.CSS(`input[name=ramsch_points_1]`), "x"),
		chromedp.SendKeys(chromedp.CSS(`input[name=ramsch_tricks_2]`), "y"))
	s := sendRefused(t, ctx, "send the Ramsch with two counts refused", submit)
	if len(s.Said) != 2 || !slices.Equal(s.Marked, []string{"ramsch_points_1", "ramsch_tricks_2"}) {
		t.Fatalf("two counts refused: the form says %q, marks %q", s.Said, s.Marked)
	}
	changeField(t, ctx, "correct Ben's points", []string{"Bitte eine ganze Zahl eingeben."}, []string{"ramsch_points_1"},
		chromedp.Clear(chromedp.CSS(`input[name=ramsch_points_1]`)), chromedp.SendKeys(chromedp.CSS(`input[name=ramsch_points_1]`), "40"))
	// No trick answers Cleo's counts: 0 and 0.
	changeField(t, ctx, "Cleo took no trick", []string{"Bitte eine ganze Zahl eingeben."}, []string{"ramsch_tricks_2"},
		chromedp.Click(chromedp.CSS(`input[name=ramsch_none_2]`)))
	// Counts that do not add up: the whole Ramsch's message goes with a
	// change of any count.
	run(t, ctx, "fill in counts that do not add up",
		chromedp.SendKeys(chromedp.CSS(`input[name=ramsch_tricks_0]`), "3"), chromedp.SendKeys(chromedp.CSS(`input[name=ramsch_tricks_1]`), "3"),
		chromedp.SendKeys(chromedp.CSS(`input[name=ramsch_points_3]`), "20"), chromedp.SendKeys(chromedp.CSS(`input[name=ramsch_tricks_3]`), "2"))
	s = sendRefused(t, ctx, "send the Ramsch that does not add up", submit)
	if len(s.Said) != 1 || len(s.Marked) != 0 {
		t.Fatalf("the Ramsch that does not add up says %q, marks %q; want one message for the whole Ramsch", s.Said, s.Marked)
	}
	changeField(t, ctx, "change Dan's points", s.Said, nil, chromedp.SendKeys(chromedp.CSS(`input[name=ramsch_points_3]`), "0"))

	// Zuger solo, sent empty: declarer, points and tricks.
	z := createGame(t, h, `{"variant":"zuger",`+four+`}`)
	open("the solo form", "/g/"+z+"/record?contract=solo&lang=en")
	sendRefused(t, ctx, "send the solo empty", submit)
	changeField(t, ctx, "tap the declarer", []string{"#declarer-error"}, []string{"fieldset.picks.declarer"}, chromedp.Click(chromedp.CSS(tap("declarer", "Ben"))))
	changeField(t, ctx, "type the points", []string{"#points-error"}, []string{"points"}, chromedp.SendKeys(chromedp.CSS(`#points`), "7"))
	changeField(t, ctx, "tap the tricks", []string{"#tricks-error"}, []string{"fieldset.picks.tricks"}, chromedp.Click(chromedp.CSS(tap("tricks", "5"))))

	// Württemberg Bettel: won or lost, then the tricks of a lost one.
	open("the Bettel form", "/g/"+w+"/record?contract=bettel&lang=en")
	sendRefused(t, ctx, "send the Bettel empty", submit)
	changeField(t, ctx, "tap won", []string{"#outcome-error"}, []string{"fieldset.picks.outcome"}, chromedp.Click(chromedp.CSS(tap("outcome", "won"))))
	// A lost Bettel's tricks may be left out, but not be more than the pack
	// has (sent by a page of another version, say).
	run(t, ctx, "tap the declarer, lost and 99 tricks", chromedp.Click(chromedp.CSS(tap("declarer", "Ben"))), chromedp.Click(chromedp.CSS(tap("outcome", "lost"))),
		chromedp.Click(chromedp.CSS(tap("tricks", "3"))), js(`document.querySelector("input[name=tricks]:checked").value = "99"`))
	sendRefused(t, ctx, "send the Bettel lost with 99 tricks", submit)
	changeField(t, ctx, "tap the tricks", []string{"#tricks-error"}, []string{"fieldset.picks.tricks.when-lost"}, chromedp.Click(chromedp.CSS(tap("tricks", "2"))))

	// Württemberg suit without its trump (hearts pays double).
	open("the suit form", "/g/"+w+"/record?contract=suit&lang=en")
	run(t, ctx, "tap the declarer", chromedp.Click(chromedp.CSS(tap("declarer", "Ben"))), chromedp.SendKeys(chromedp.CSS(`#points`), "70"))
	sendRefused(t, ctx, "send the suit without trump", submit)
	changeField(t, ctx, "tap trump", []string{"#trump-error"}, []string{"fieldset.picks.trump"}, chromedp.Click(chromedp.CSS(tap("trump", "hearts"))))

	// Matzlfangen rufen: no partner, then a kontra and a Matzl no form
	// offers (sent by a page of another version, say).
	m := createGame(t, h, `{"variant":"matzlfangen",`+four+`}`)
	open("the rufen form", "/g/"+m+"/record?contract=rufen&lang=en")
	run(t, ctx, "fill in rufen without the partner", chromedp.SendKeys(chromedp.CSS(`#points`), "70"), chromedp.Click(chromedp.CSS(tap("tricks", "5"))))
	sendRefused(t, ctx, "send rufen without the partner", submit)
	changeField(t, ctx, "tap the partner", []string{"#partner-error"}, []string{"fieldset.picks.partner"}, chromedp.Click(chromedp.CSS(tap("partner", "Cleo"))))
	run(t, ctx, "choose kontra 11", js(`(() => { const s = document.querySelector("select[name=kontra]"); s.add(new Option("11", "11")); s.value = "11"; })()`))
	sendRefused(t, ctx, "send rufen with kontra 11", submit)
	changeField(t, ctx, "step kontra up", []string{"#kontra-error"}, []string{"kontra"}, chromedp.Click(chromedp.CSS(`.stepper button:last-child`)))
	run(t, ctx, "choose Matzl nobody", js(`document.querySelector("input[name=matzl]:checked").value = "nobody"`))
	sendRefused(t, ctx, "send rufen with Matzl nobody", submit)
	changeField(t, ctx, "tap a Matzl", []string{"#matzl-error"}, []string{"fieldset.picks.matzl"}, chromedp.Click(chromedp.CSS(tap("matzl", "declarer"))))

	// A correction without its reason, and a void without one (the
	// browser's own check taken away, as an older page might lack it).
	mustStatus(t, do(t, h, "POST", "/api/games/"+z+"/hands", `{"contract":"solo","declarer":"Ben","points":70,"tricks":5}`), 201)
	open("deal 1's page", "/g/"+z+"/hands/1?lang=en")
	sendRefused(t, ctx, "send the correction without a reason", submit)
	changeField(t, ctx, "type the reason", []string{"#reason-error"}, []string{"reason"}, chromedp.SendKeys(chromedp.CSS(`form.deal input[name=reason]`), "r"))
	run(t, ctx, "take the void's check away", js(`document.querySelector("form.danger input[name=reason]").required = false`))
	sendRefused(t, ctx, "void without a reason", `form.danger button[type=submit]`)
	changeField(t, ctx, "type the void's reason", []string{"#void-error"}, []string{"reason"}, chromedp.SendKeys(chromedp.CSS(`form.danger input[name=reason]`), "m"))

	// Without JavaScript the form is posted and answered as it always
	// was: the message beside the field, until the next send.
	run(t, ctx, "switch JavaScript off", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true})
		return err
	}))
	open("the Ramsch form without JavaScript", "/g/"+w+"/record?contract=ramsch&lang=de")
	run(t, ctx, "send it empty", chromedp.Click(chromedp.CSS(submit)), chromedp.WaitVisible(chromedp.CSS(`p.error`)))
	run(t, ctx, "type Anna's points", chromedp.SendKeys(chromedp.CSS(`input[name=ramsch_points_0]`), "50"))
	s = value(t, ctx, "read the form", chromedp.Evaluate[formState](formStateScript))
	if !slices.Contains(s.Said, "Augen von Anna eingeben.") || !slices.Contains(s.Marked, "ramsch_points_0") {
		t.Errorf("without JavaScript the Ramsch form says %q, marks %q", s.Said, s.Marked)
	}
}
