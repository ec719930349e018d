package web

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// box is an element's place on the screen, as getBoundingClientRect gives it.
type box struct{ Left, Top, Right, Bottom float64 }

// boxOf reads where the element sel is on the screen.
func boxOf(sel string) chromedp.Action[box] {
	return chromedp.Evaluate[box](fmt.Sprintf(`(r => ({left: r.left, top: r.top, right: r.right, bottom: r.bottom}))(document.querySelector(%q).getBoundingClientRect())`, sel))
}

// A double tap on Save records the deal once and leaves the phone on the
// table that says so, with the next deal's Record button: the second tap
// takes no second send, and does not land on what the answer puts where
// Save was. It once landed on the table's "Record deal n+1", which opened
// the next deal's form before the saved deal was seen (a tester's
// double tap, over a LAN name); a second tap as the table came sent the
// deal again from the table, which then loaded itself again.
func TestBrowserDoubleTapOnSave(t *testing.T) {
	h := newServer(t)
	base, posts := lanServer(t, h)
	ctx := browser(t, lanNames)
	run(t, ctx, "be a phone", asPhone("light"))
	z := createGame(t, h, zugerGame)
	mustStatus(t, do(t, h, "POST", "/api/games/"+z+"/hands", `{"contract":"pass","expected_hand":1}`), 201)
	// The second tap comes this long after the first: a quick double tap,
	// and one slow enough that the table is there before it.
	for i, gap := range []time.Duration{100 * time.Millisecond, 200 * time.Millisecond, 300 * time.Millisecond} {
		n := i + 2
		// Where "Record deal n+1" will be: the table as it stands after a
		// save, with the saved deal's card and its Undo.
		run(t, ctx, "the table after a save", chromedp.Navigate(fmt.Sprintf("%s/g/%s?saved=%d&lang=en", base, z, n-1)), chromedp.WaitVisible(chromedp.CSS(`a.button.primary[href$="/record"]`)))
		record := value(t, ctx, "where Record is", boxOf(`a.button.primary[href$="/record"]`))
		// A passed deal: its Save is where the table's Record comes.
		run(t, ctx, "open the deal's form", chromedp.Navigate(base+"/g/"+z+"/record?contract=pass"), loaded(`document.querySelector('form.deal') !== null`))
		save := value(t, ctx, "where Save is", boxOf(`form.deal button[type=submit]`))
		top, bottom := max(save.Top, record.Top), min(save.Bottom, record.Bottom)
		left, right := max(save.Left, record.Left), min(save.Right, record.Right)
		if top+8 > bottom || left+8 > right {
			t.Fatalf("Save (%v) is not where the table's Record (%v) comes: the test no longer taps where the bug was; choose another form", save, record)
		}
		x, y := (left+right)/2, (top+bottom)/2
		before := len(posts.all())
		run(t, ctx, fmt.Sprintf("double tap on Save, %v apart", gap), chromedp.TapXY(x, y), chromedp.Sleep(gap), chromedp.TapXY(x, y))
		for end := time.Now().Add(5 * time.Second); len(listHands(t, h, z)) < n && time.Now().Before(end); {
			time.Sleep(50 * time.Millisecond)
		}
		time.Sleep(1500 * time.Millisecond) // what the second tap did shows by now
		where := value(t, ctx, "where the phone is", chromedp.Location())
		says := value(t, ctx, "what the page says", chromedp.Evaluate[string](`document.getElementById('main') ? document.getElementById('main').innerText : ''`))
		if !strings.HasSuffix(where, fmt.Sprintf("/g/%s?saved=%d", z, n)) || !strings.Contains(says, fmt.Sprintf("Deal %d saved.", n)) || !strings.Contains(says, fmt.Sprintf("Record deal %d", n+1)) {
			shot(t, ctx, fmt.Sprintf("double-tap-%d", n))
			t.Fatalf("a double tap %v apart on Save of deal %d leaves the phone at %s, showing:\n%.300s", gap, n, where, says)
		}
		var sent []string
		for _, p := range posts.all()[before:] {
			sent = append(sent, fmt.Sprintf("%s %d", p.path, p.status))
		}
		if len(sent) != 1 {
			t.Fatalf("a double tap %v apart on Save of deal %d sent %d posts, want 1: %v", gap, n, len(sent), sent)
		}
		if got := len(listHands(t, h, z)); got != n {
			t.Fatalf("after a double tap on Save of deal %d there are %d deals", n, got)
		}
	}
}
