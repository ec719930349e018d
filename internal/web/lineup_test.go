package web

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// #36 groups: a group evening's line-up is tapped, not typed: each seat
// offers every member; the seats tapped, in any order, start the evening
// with those players in that order, and a name typed for a seat is a
// newcomer, asked about once.
func TestLineUpTappedFromMembers(t *testing.T) {
	h := newServer(t)
	gid := createGroup(t, h, `{"name":"Thursday","players":["Anna","Ben","Cleo","Dan","Eva","Fred"],"unit":"0.50","currency":"CHF"}`)["id"].(string)
	form := page(t, h, "/new/zuger?group="+gid, "en").body
	for seat := range 4 {
		for _, m := range []string{"Anna", "Fred"} {
			if !strings.Contains(form, fmt.Sprintf(`name="seat%d" value="%s"`, seat, m)) {
				t.Fatalf("seat %d does not offer %s to tap: %s", seat+1, m, visibleText(form))
			}
		}
	}
	if strings.Contains(form, `name="player"`) {
		t.Fatalf("the group's evening still asks names typed")
	}
	start := func(v url.Values) *http.Response {
		v.Set("group", gid)
		v.Set("unit", "0.50")
		v.Set("currency", "CHF")
		return postFrom(h, "/new/zuger", v).Result()
	}
	// Fred, Dan, Ben, Eva: tapped seat by seat.
	r := start(url.Values{"seat0": {"Fred"}, "seat1": {"Dan"}, "seat2": {"Ben"}, "seat3": {"Eva"}, "other0": {""}})
	if r.StatusCode != http.StatusSeeOther {
		t.Fatalf("start with the line-up tapped: %d", r.StatusCode)
	}
	id := strings.TrimPrefix(r.Header.Get("Location"), "/g/")
	if got := fmt.Sprint(do(t, h, "GET", "/api/games/"+id, "").json(t)["players"]); got != "[Fred Dan Ben Eva]" {
		t.Fatalf("the evening's players %s, want the seats as tapped", got)
	}
	// A name typed for a seat wins over its tap, and is asked about as a
	// newcomer before anything starts.
	rec := postFrom(h, "/new/zuger", url.Values{"group": {gid}, "unit": {"0.50"}, "currency": {"CHF"},
		"seat0": {"Anna"}, "seat1": {"Ben"}, "seat2": {"Cleo"}, "seat3": {"Dan"}, "other3": {"Zoe"}}, "Accept-Language", "en")
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `name="new_members" value="Zoe"`) || !strings.Contains(rec.Body.String(), `name="other3" value="Zoe"`) {
		t.Fatalf("a newcomer typed for seat 4: %d %s", rec.Code, visibleText(rec.Body.String()))
	}
	// The same member in two seats is refused at that seat, nothing started.
	before := len(do(t, h, "GET", "/api/groups/"+gid, "").json(t)["evenings"].([]any))
	rec = postFrom(h, "/new/zuger", url.Values{"group": {gid}, "unit": {"0.50"}, "currency": {"CHF"},
		"seat0": {"Anna"}, "seat1": {"Anna"}, "seat2": {"Cleo"}, "seat3": {"Dan"}}, "Accept-Language", "en")
	if rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), `id="player1-error"`) {
		t.Fatalf("Anna in two seats: %d %s", rec.Code, visibleText(rec.Body.String()))
	}
	if after := len(do(t, h, "GET", "/api/groups/"+gid, "").json(t)["evenings"].([]any)); after != before {
		t.Fatalf("a refused line-up started an evening")
	}
}
