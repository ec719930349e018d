package web

import (
	"testing"

	"github.com/chromedp/chromedp"
)

// The line that names who has the most points in a Ramsch appears as the
// counts are typed: it takes its room from the start, so the Save button
// does not move away from a finger on its way to it.
func TestBrowserRamschSaveStaysPut(t *testing.T) {
	h := newServer(t)
	base, _ := lanServer(t, h)
	ctx := browser(t, lanNames)
	run(t, ctx, "be a phone", asPhone("light"))
	id := createGame(t, h, `{"variant":"wuerttemberg","players":["Anna","Ben","Cleo"]}`)
	save := `document.querySelector('form.deal button[type=submit]').getBoundingClientRect().top + window.scrollY`
	run(t, ctx, "a Ramsch's form",
		chromedp.Navigate(base+"/g/"+id+"/record?contract=ramsch&lang=en"), chromedp.WaitVisible(chromedp.CSS(`fieldset.ramsch`)))
	before := value(t, ctx, "where Save is", chromedp.Evaluate[float64](save))
	run(t, ctx, "type two counts",
		chromedp.SendKeys(chromedp.CSS(`input[name=ramsch_points_0]`), "50"), chromedp.SendKeys(chromedp.CSS(`input[name=ramsch_points_1]`), "40"))
	if most := text(t, ctx, `document.querySelector('output.most').textContent`); most == "" {
		t.Fatal("no line names the most points after two counts")
	}
	if after := value(t, ctx, "where Save is now", chromedp.Evaluate[float64](save)); after != before {
		shot(t, ctx, "ramsch-save-moved")
		t.Fatalf("Save moved from %v to %v px as the most points were named", before, after)
	}
}
