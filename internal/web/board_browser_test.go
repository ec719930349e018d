package web

import (
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// boardScript measures the board as it opens: the smallest balance's font
// size, whether every player's number is inside the screen, side by side
// or one under the other, and how many are below its bottom edge.
const boardScript = `(() => {
  window.scrollTo(0, 0);
  const nums = [...document.querySelectorAll('.board-players .big-num')];
  const min = Math.min(...nums.map(n => parseFloat(getComputedStyle(n).fontSize)));
  const out = nums.filter(n => { const r = n.getBoundingClientRect(); return r.left < 0 || r.right > innerWidth; }).length;
  const tops = new Set(nums.map(n => Math.round(n.closest('li').getBoundingClientRect().top)));
  const below = nums.filter(n => n.getBoundingClientRect().bottom > innerHeight).length;
  return {min: min, out: out, below: below, rows: tops.size, count: nums.length, width: document.documentElement.scrollWidth};
})()`

type boardFit struct {
	Min   float64 `json:"min"`
	Out   int     `json:"out"`
	Below int     `json:"below"`
	Rows  int     `json:"rows"`
	Count int     `json:"count"`
	Width int     `json:"width"`
}

// #36 "the board": on a phone standing up and lying down, in every
// language, each balance is at least 48 CSS px and on the screen, one
// player a row standing up and side by side lying down; a deal recorded
// on another phone shows on the board without a reload.
func TestBrowserBoardReadableAndLive(t *testing.T) {
	h := newServer(t)
	base, _ := lanServer(t, h)
	id := createGame(t, h, `{"variant":"old-tapp","players":["Annelie","Benedikt","Cleopatra"],"unit":"0.50","currency":"EUR"}`)
	mustStatus(t, do(t, h, "POST", "/api/games/"+id+"/hands", `{"contract":"coeurfrage","declarer":"Benedikt","points":40}`), 201)
	ro := do(t, h, "GET", "/api/games/"+id, "").json(t)["read_id"].(string)
	ctx := browser(t, lanNames)
	for _, o := range []struct {
		name string
		w, h int64
		rows int
	}{{"portrait", phoneWidth, phoneHeight, 4}, {"landscape", phoneHeight, phoneWidth, 1}} {
		run(t, ctx, "be a phone "+o.name, asPhone("dark"), chromedp.EmulateViewport(o.w, o.h, chromedp.EmulateMobile, chromedp.EmulateTouch))
		for _, lang := range []string{"en", "de", "sv"} {
			run(t, ctx, "open the board", chromedp.Navigate(base+"/r/"+ro+"/board?lang="+lang), chromedp.WaitVisible(chromedp.CSS(`.board-players`)))
			f := value(t, ctx, "measure the board", chromedp.Evaluate[boardFit](boardScript))
			if f.Min < 48 || f.Out > 0 || f.Rows != o.rows || f.Width > int(o.w) {
				shot(t, ctx, fmt.Sprintf("board-%s-%s", o.name, lang))
				t.Errorf("%s %s: numbers %.0f px (want ≥ 48), %d off the screen, %d rows (want %d), page %d px wide", o.name, lang, f.Min, f.Out, f.Rows, o.rows, f.Width)
			}
		}
	}
	run(t, ctx, "mark the page", js(`window.notReloaded = true`))
	time.Sleep(300 * time.Millisecond) // let the live stream connect
	mustStatus(t, do(t, h, "POST", "/api/games/"+id+"/hands", `{"contract":"pass"}`), 201)
	run(t, ctx, "the board follows", chromedp.WaitVisible(chromedp.CSS(`.board-next`)))
	deadline := time.Now().Add(5 * time.Second)
	var next string
	for time.Now().Before(deadline) {
		next = value(t, ctx, "read the board", chromedp.Evaluate[string](`window.notReloaded ? document.querySelector('.board-next').textContent : "reloaded"`))
		if next == "Giv 3: Cleopatra ger" {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("the board says %q after deal 2, want the next deal without a reload", next)
}
