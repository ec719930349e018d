package web

import (
	"context"
	"regexp"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// timesScript gives each shown time: how much it shows, its instant and
// its text.
const timesScript = `[...document.querySelectorAll('time[datetime][data-show], text[data-datetime][data-show]')].map(e => [e.getAttribute('data-show'), e.getAttribute('datetime') || e.getAttribute('data-datetime'), e.textContent])`

// A phone shows every time of the evening in its own time zone, whatever
// the server's (a home server left on UTC put the History, each deal's
// "what happened" and the payments an hour or more behind the phone's
// clock): the deal's history, the History page, a group's evenings, its
// payments and its chart's days, here on a phone in India (UTC+05:30, no
// summer time).
func TestBrowserTimesInThePhonesZone(t *testing.T) {
	h := newServer(t)
	base, _ := lanServer(t, h)
	grp := do(t, h, "POST", "/api/groups", `{"name":"Thursday","players":["Anna","Ben","Cleo","Dan"],"unit":"0.50","currency":"CHF"}`).json(t)["id"].(string)
	id := do(t, h, "POST", "/api/games", `{"variant":"zuger","players":["Anna","Ben","Cleo","Dan"],"group":"`+grp+`"}`).json(t)["id"].(string)
	mustStatus(t, do(t, h, "POST", "/api/games/"+id+"/hands", `{"contract":"solo","declarer":"Ben","points":70,"tricks":5}`), 201)
	mustStatus(t, do(t, h, "PUT", "/api/games/"+id+"/hands/1", `{"contract":"solo","declarer":"Ben","points":60,"tricks":4}`), 200)
	mustStatus(t, do(t, h, "POST", "/api/groups/"+grp+"/payments", `{"from":"Ben","to":"Anna","amount":"0.50"}`), 201)
	// A second evening, closed, for the statistics' chart and its days.
	closed := do(t, h, "POST", "/api/games", `{"variant":"zuger","players":["Anna","Ben","Cleo","Dan"],"group":"`+grp+`"}`).json(t)["id"].(string)
	mustStatus(t, do(t, h, "POST", "/api/games/"+closed+"/hands", `{"contract":"solo","declarer":"Cleo","points":70,"tricks":5}`), 201)
	mustStatus(t, do(t, h, "POST", "/api/games/"+closed+"/close", `{}`), 200)

	ctx := browser(t, lanNames)
	run(t, ctx, "be a phone in India", asPhone("light"), chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, emulation.SetTimezoneOverride, emulation.SetTimezoneOverrideParams{TimezoneID: "Asia/Kolkata"})
		return err
	}))
	india := time.FixedZone("IST", 5*3600+30*60)
	layouts := map[string]string{"second": "2006-01-02 15:04:05", "minute": "2006-01-02 15:04", "clock": "15:04", "date": "2006-01-02"}
	for _, p := range []struct{ path, want string }{
		{"/g/" + id, "clock"}, {"/g/" + id + "/audit", "second"}, {"/groups/" + grp, "date"}, {"/groups/" + grp + "/tab", "minute"}, {"/groups/" + grp + "/stats", "date"},
	} {
		run(t, ctx, "open "+p.path, chromedp.Navigate(base+p.path+"?lang=en"), chromedp.WaitVisible(chromedp.CSS(`main`)))
		times := value(t, ctx, "the times of "+p.path, chromedp.Evaluate[[][3]string](timesScript))
		seen := false
		for _, tm := range times {
			at, err := time.Parse(time.RFC3339, tm[1])
			if err != nil {
				t.Fatalf("%s: %q is not an instant: %v", p.path, tm[1], err)
			}
			if want := at.In(india).Format(layouts[tm[0]]); tm[2] != want {
				t.Errorf("%s: %s shows %q, want %q (its %s in India)", p.path, tm[1], tm[2], want, tm[0])
			}
			seen = seen || tm[0] == p.want
		}
		if !seen {
			t.Errorf("%s shows no %s time: %v", p.path, p.want, times)
		}
	}
	// Without the script the page gives the server's time, as before.
	m := regexp.MustCompile(`<time datetime="([^"]+)" data-show="clock">([^<]*)</time>`).FindStringSubmatch(page(t, h, "/g/"+id, "en").body)
	if m == nil {
		t.Fatal("the deal's history shows no time")
	}
	if at, err := time.Parse(time.RFC3339, m[1]); err != nil || m[2] != at.In(time.Local).Format("15:04") {
		t.Errorf("without the script the deal's history shows %q for %s, want the server's time", m[2], m[1])
	}
}
