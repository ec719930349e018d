package web

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// A group's pages on a 390 × 844 phone, with evenings closed and open and
// a payment: nothing wider than the screen, every tap target at least
// 44 × 44. The links to the group's evenings were one line of text, 21
// pixels high.
func TestBrowserGroupPagesFitAPhone(t *testing.T) {
	h := newServer(t)
	base, _ := lanServer(t, h)
	g := createGroup(t, h, thursdayGroup)
	gid, rid := g["id"].(string), g["read_id"].(string)
	first := mustStatus(t, do(t, h, "POST", "/api/games", zugerEvening(gid, "Anna", "Ben", "Cleo", "Dan")), 201).json(t)["id"].(string)
	mustStatus(t, do(t, h, "POST", "/api/games/"+first+"/hands", tappDeal("Anna", 70)), 201)
	mustStatus(t, do(t, h, "POST", "/api/games/"+first+"/close", `{}`), 200)
	second := mustStatus(t, do(t, h, "POST", "/api/games/"+first+"/again", ""), 201).json(t)["id"].(string)
	mustStatus(t, do(t, h, "POST", "/api/games/"+second+"/hands", tappDeal("Cleo", 80)), 201)
	mustStatus(t, do(t, h, "POST", "/api/groups/"+gid+"/payments", `{"from":"Ben","to":"Anna","amount":"0.5","note":"cash"}`), 201)

	ctx := browser(t, lanNames)
	run(t, ctx, "be a phone", asPhone("light"))
	for _, path := range []string{"/groups/" + gid, "/groups/" + gid + "/tab", "/groups/" + gid + "/tab?cash=1", "/groups/" + gid + "/stats", "/r/" + rid} {
		for _, lang := range []string{"en", "de", "sv"} {
			run(t, ctx, "open "+path, chromedp.Navigate(base+path+querySep(path)+"lang="+lang), chromedp.WaitVisible(chromedp.CSS(`main h1`)))
			f := value(t, ctx, "measure "+path, chromedp.Evaluate[fit](fitScript))
			if f.Width > phoneWidth || len(f.Small) > 0 {
				shot(t, ctx, "group-"+lang)
				t.Errorf("%s in %s: %d px wide; tap targets under 44 × 44: %q", path, lang, f.Width, f.Small)
			}
		}
	}
}

func querySep(path string) string {
	if strings.Contains(path, "?") {
		return "&"
	}
	return "?"
}
