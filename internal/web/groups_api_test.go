package web

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/shopspring/decimal"
	"golang.org/x/mod/sumdb/note"
)

const thursdayGroup = `{"name":"Thursday table","players":["Anna","Ben"],"unit":"0.50","currency":"CHF"}`

func createGroup(t *testing.T, h http.Handler, body string) map[string]any {
	t.Helper()
	r := do(t, h, "POST", "/api/groups", body)
	if r.status != http.StatusCreated {
		t.Fatalf("create group: %d %s", r.status, r.body)
	}
	return r.json(t)
}

func zugerEvening(group string, players ...string) string {
	return fmt.Sprintf(`{"variant":"zuger","players":["%s"],"group":%q}`, strings.Join(players, `","`), group)
}

func tappDeal(who string, points int) string {
	return fmt.Sprintf(`{"contract":"tapp","declarer":%q,"points":%d,"tricks":5}`, who, points)
}

func mustStatus(t *testing.T, r resp, status int) resp {
	t.Helper()
	if r.status != status {
		t.Fatalf("status %d, want %d: %s", r.status, status, r.body)
	}
	return r
}

// sumOwed checks a tab's owed sums to zero and that its transfers settle
// it exactly, and gives owed as decimals.
func sumOwed(t *testing.T, tab map[string]any) map[string]decimal.Decimal {
	t.Helper()
	owed := map[string]decimal.Decimal{}
	sum := decimal.Zero
	for name, v := range tab["owed"].(map[string]any) {
		owed[name] = decimal.RequireFromString(v.(string))
		sum = sum.Add(owed[name])
	}
	if !sum.IsZero() {
		t.Fatalf("owed sums to %s: %v", sum, tab["owed"])
	}
	left := map[string]decimal.Decimal{}
	for k, v := range owed {
		left[k] = v
	}
	for _, x := range tab["transfers"].([]any) {
		tr := x.(map[string]any)
		amt := decimal.RequireFromString(tr["amount"].(string))
		left[tr["from"].(string)] = left[tr["from"].(string)].Add(amt)
		left[tr["to"].(string)] = left[tr["to"].(string)].Sub(amt)
	}
	for name, v := range left {
		if !v.IsZero() {
			t.Fatalf("after the transfers %s is left with %s: %v", name, v, tab)
		}
	}
	return owed
}

func TestGroupsThroughTheAPI(t *testing.T) {
	h := newServer(t)
	g := createGroup(t, h, thursdayGroup)
	if keys(g) != "currency,evenings,id,name,players,read_id,unit" || g["name"] != "Thursday table" || g["unit"] != "0.50" ||
		g["currency"] != "CHF" || fmt.Sprint(g["players"]) != "[Anna Ben]" || len(g["id"].(string)) < 26 || len(g["read_id"].(string)) < 26 {
		t.Fatalf("create: %v", g)
	}
	gid, rid := g["id"].(string), g["read_id"].(string)

	// Two evenings of the group: Cleo and Dan become members; the unit
	// and currency are the group's.
	e1 := mustStatus(t, do(t, h, "POST", "/api/games", zugerEvening(gid, "Anna", "Ben", "Cleo", "Dan")), 201).json(t)
	if e1["unit"] != "0.50" || e1["currency"] != "CHF" || e1["group"] != gid {
		t.Fatalf("evening: %v", e1)
	}
	id1 := e1["id"].(string)
	mustStatus(t, do(t, h, "POST", "/api/games/"+id1+"/hands", tappDeal("Anna", 70)), 201)
	mustStatus(t, do(t, h, "POST", "/api/games/"+id1+"/hands", tappDeal("Ben", 40)), 201)
	mustStatus(t, do(t, h, "POST", "/api/games/"+id1+"/close", `{}`), 200)
	// The next evening of the same table: the deal passed on.
	e2 := mustStatus(t, do(t, h, "POST", "/api/games/"+id1+"/again", ""), 201).json(t)
	if fmt.Sprint(e2["players"]) != "[Ben Cleo Dan Anna]" || e2["group"] != gid {
		t.Fatalf("again: %v", e2)
	}
	id2 := e2["id"].(string)
	mustStatus(t, do(t, h, "POST", "/api/games/"+id2+"/hands", tappDeal("Cleo", 80)), 201)

	got := mustStatus(t, do(t, h, "GET", "/api/groups/"+gid, ""), 200).json(t)
	evs := got["evenings"].([]any)
	if fmt.Sprint(got["players"]) != "[Anna Ben Cleo Dan]" || len(evs) != 2 {
		t.Fatalf("group: %v", got)
	}
	newest, oldest := evs[0].(map[string]any), evs[1].(map[string]any)
	if keys(newest) != "closed,hands,id,money,players,read_id,started,variant" || newest["id"] != id2 || oldest["id"] != id1 ||
		newest["closed"] != false || oldest["closed"] != true || newest["variant"] != "zuger" {
		t.Fatalf("evenings newest first: %v", evs)
	}
	// Evening 1: Anna +4 units, Ben −4: CHF 2.00 and −2.00.
	if m := oldest["money"].(map[string]any); m["Anna"] != "2.00" || m["Ben"] != "-2.00" || m["Cleo"] != "0.00" {
		t.Fatalf("money %v", m)
	}

	// The tab counts the closed evening only.
	tab := mustStatus(t, do(t, h, "GET", "/api/groups/"+gid+"/tab", ""), 200).json(t)
	owed := sumOwed(t, tab)
	if tab["owed"].(map[string]any)["Anna"] != "2.00" || !owed["Ben"].Equal(decimal.RequireFromString("-2")) || tab["evenings"] != 1.0 {
		t.Fatalf("tab %v", tab)
	}
	if cash := tab["cash"].(map[string]any); cash["step"] != "0.05" || len(cash["transfers"].([]any)) != 1 {
		t.Fatalf("cash %v", cash)
	}

	// Ben pays Anna, with a key: repeated, it is recorded once.
	p := mustStatus(t, do(t, h, "POST", "/api/groups/"+gid+"/payments", `{"from":"Ben","to":"Anna","amount":"1.5","note":"cash"}`, "Idempotency-Key", "pay-1"), 201)
	if p.body != `{"payment":1,"from":"Ben","to":"Anna","amount":"1.50","note":"cash"}`+"\n" {
		t.Fatalf("payment: %s", p.body)
	}
	again := mustStatus(t, do(t, h, "POST", "/api/groups/"+gid+"/payments", `{"from":"Ben","to":"Anna","amount":"1.5","note":"cash"}`, "Idempotency-Key", "pay-1"), 201)
	if again.body != p.body {
		t.Fatalf("repeated payment: %s", again.body)
	}
	// An amount is a decimal string (api.md), never a JSON number: refused,
	// with the string meant, and nothing paid.
	if msg := mustStatus(t, do(t, h, "POST", "/api/groups/"+gid+"/payments", `{"from":"Dan","to":"Cleo","amount":7}`), 400).json(t)["error"]; msg != `amount: must be a decimal string, such as "7", not the JSON number 7, so that nothing is lost to floats` {
		t.Fatalf("a payment's amount as a JSON number: %v", msg)
	}
	// A payment beyond what is owed turns into credit.
	mustStatus(t, do(t, h, "POST", "/api/groups/"+gid+"/payments", `{"from":"Dan","to":"Cleo","amount":"7"}`), 201)
	tab = mustStatus(t, do(t, h, "GET", "/api/groups/"+gid+"/tab", ""), 200).json(t)
	sumOwed(t, tab)
	if o := tab["owed"].(map[string]any); o["Anna"] != "0.50" || o["Ben"] != "-0.50" || o["Cleo"] != "-7.00" || o["Dan"] != "7.00" {
		t.Fatalf("tab after payments: %v", o)
	}
	mustStatus(t, do(t, h, "POST", "/api/groups/"+gid+"/payments/2/void", `{"reason":"typed the wrong amount"}`), 200)
	tab = mustStatus(t, do(t, h, "GET", "/api/groups/"+gid+"/tab", ""), 200).json(t)
	if o := tab["owed"].(map[string]any); o["Cleo"] != "0.00" || o["Dan"] != "0.00" {
		t.Fatalf("tab after the void: %v", o)
	}
	ps := mustStatus(t, do(t, h, "GET", "/api/groups/"+gid+"/payments", ""), 200)
	if !strings.Contains(ps.body, `"payment":2,"from":"Dan","to":"Cleo","amount":"7.00","note":"",`) || !strings.Contains(ps.body, `"voided":true,"void_reason":"typed the wrong amount"`) {
		t.Fatalf("payments: %s", ps.body)
	}

	st := mustStatus(t, do(t, h, "GET", "/api/groups/"+gid+"/stats", ""), 200).json(t)
	anna := st["players"].(map[string]any)["Anna"].(map[string]any)
	if keys(anna) != "best_evening,contracts,deals,declared,declared_won,evenings,money_lost,money_net,money_won,partners,running,variants,won_percent,worst_evening" {
		t.Fatalf("stats of a player: %v", anna)
	}
	// #36's additions: Anna's one tapp, won (3 units of 0.50); the records and
	// the year of the one closed evening.
	if keys(st) != "evenings,head_to_head,members,players,records,years" {
		t.Fatalf("stats: %v", keys(st))
	}
	if c := fmt.Sprint(anna["contracts"]); c != "[map[contract:tapp declared:1 money:1.50 variant:zuger won:1 won_percent:100.0]]" {
		t.Fatalf("Anna's contracts: %s", c)
	}
	if r := st["records"].(map[string]any); r["best_evening"].(map[string]any)["player"] != "Anna" || r["longest_run"].(map[string]any)["hands"] != 1.0 {
		t.Fatalf("records: %v", r)
	}
	if y := st["years"].([]any); len(y) != 1 || len(y[0].(map[string]any)["players"].(map[string]any)) != 4 {
		t.Fatalf("years: %v", y)
	}
	if hh := st["head_to_head"].([]any); len(hh) != 6 {
		t.Fatalf("head to head of four players: %v", hh)
	}
	if anna["evenings"] != 1.0 || anna["deals"] != 2.0 || anna["declared"] != 1.0 || anna["declared_won"] != 1.0 || anna["won_percent"] != "100.0" ||
		anna["money_won"] != "2.00" || anna["money_lost"] != "0.00" || fmt.Sprint(anna["running"]) != "[2.00]" {
		t.Fatalf("Anna: %v", anna)
	}
	if z := anna["variants"].(map[string]any)["zuger"].(map[string]any); z["evenings"] != 1.0 || z["money_won"] != "2.00" {
		t.Fatalf("Anna in zuger: %v", z)
	}
	if best := anna["best_evening"].(map[string]any); best["id"] != id1 || best["money"] != "2.00" {
		t.Fatalf("Anna's best: %v", best)
	}
	if ben := st["players"].(map[string]any)["Ben"].(map[string]any); ben["won_percent"] != "0.0" || ben["money_lost"] != "2.00" {
		t.Fatalf("Ben: %v", ben)
	}
	if dan := st["players"].(map[string]any)["Dan"].(map[string]any); dan["won_percent"] != nil {
		t.Fatalf("Dan declared nothing: %v", dan)
	}

	// The read-only link reads the group, its tab and its stats, shows no
	// key that writes, and writes nothing.
	ro := mustStatus(t, do(t, h, "GET", "/api/r/"+rid, ""), 200)
	for _, secret := range []string{gid, id1, id2} {
		if strings.Contains(ro.body, secret) {
			t.Fatalf("the read-only group shows a key that writes: %s", ro.body)
		}
	}
	if rj := ro.json(t); rj["name"] != "Thursday table" || len(rj["evenings"].([]any)) != 2 || rj["evenings"].([]any)[0].(map[string]any)["read_id"] != e2["read_id"] {
		t.Fatalf("read-only group: %s", ro.body)
	}
	if rt := mustStatus(t, do(t, h, "GET", "/api/r/"+rid+"/tab", ""), 200); rt.body != mustStatus(t, do(t, h, "GET", "/api/groups/"+gid+"/tab", ""), 200).body {
		t.Fatalf("read-only tab: %s", rt.body)
	}
	rs := mustStatus(t, do(t, h, "GET", "/api/r/"+rid+"/stats", ""), 200)
	if strings.Contains(rs.body, id1) || !strings.Contains(rs.body, `"money_won":"2.00"`) {
		t.Fatalf("read-only stats: %s", rs.body)
	}
	for _, w := range []struct{ method, path string }{
		{"POST", "/api/r/" + rid + "/payments"}, {"POST", "/api/r/" + rid + "/payments/1/void"}, {"POST", "/api/r/" + rid + "/members"},
		{"POST", "/api/r/" + rid}, {"PUT", "/api/r/" + rid + "/hands/1"}, {"DELETE", "/api/r/" + rid},
	} {
		// 405, saying it is a read-only link (not 404 "no game" for a group's).
		r := do(t, h, w.method, w.path, `{"from":"Ben","to":"Anna","amount":"1","reason":"x","players":["Zoe"]}`)
		if msg, _ := r.json(t)["error"].(string); r.status != 405 || !strings.Contains(msg, "read-only link") {
			t.Fatalf("%s %s through the read-only link: %d %s", w.method, w.path, r.status, r.body)
		}
		if rec := raw(t, h, w.method, w.path); rec.Header().Get("Content-Security-Policy") == "" || rec.Header().Get("Allow") != "GET, HEAD" {
			t.Fatalf("%s %s: headers %v", w.method, w.path, rec.Header())
		}
	}
	if ev := mustStatus(t, do(t, h, "GET", "/api/groups/"+gid+"/events", ""), 200); strings.Count(ev.body, `"seq"`) != 10 {
		t.Fatalf("group events: %s", ev.body)
	}
	// A read-only evening does not give its group's key either.
	r1 := e1["read_id"].(string)
	for _, path := range []string{"/api/r/" + r1, "/api/r/" + r1 + "/events", "/r/" + r1 + "/events.json", "/r/" + r1 + "/audit"} {
		if r := mustStatus(t, do(t, h, "GET", path, ""), 200); strings.Contains(r.body, gid) {
			t.Fatalf("%s shows the group's key: %s", path, r.body)
		}
	}
	// The writing link of the evening does.
	if r := mustStatus(t, do(t, h, "GET", "/api/games/"+id1, ""), 200); !strings.Contains(r.body, gid) {
		t.Fatalf("the evening does not name its group: %s", r.body)
	}
	// Members may be added by hand.
	m := mustStatus(t, do(t, h, "POST", "/api/groups/"+gid+"/members", `{"players":["Eva","Anna"]}`), 200).json(t)
	if fmt.Sprint(m["players"]) != "[Anna Ben Cleo Dan Eva]" {
		t.Fatalf("members: %v", m)
	}
	exp := mustStatus(t, do(t, h, "GET", "/api/groups/"+gid+"/export", ""), 200)
	lines, seal, signed := strings.Cut(exp.body, "tappbook export v1\n")
	if strings.Count(lines, "\n") != 11+4+2+3 || !strings.Contains(lines, `"type":"group.started"`) || !signed {
		t.Fatalf("export: %s", exp.body)
	}
	// It ends with a note the server's key signed.
	vkey := mustStatus(t, do(t, h, "GET", "/api/receipt-key", ""), 200).body
	v, err := note.NewVerifier(strings.TrimSpace(vkey))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := note.Open([]byte("tappbook export v1\n"+seal), note.VerifierList(v)); err != nil {
		t.Fatalf("the export's signature: %v\n%s", err, seal)
	}
}

// Every refusal of the Groups endpoints: its status, a sentence naming
// what to fix, and nothing changed.
func TestGroupsAPIErrors(t *testing.T) {
	h := newServer(t)
	g := createGroup(t, h, `{"name":"Thursday table","players":["Anna","Ben","Cleo","Dan"],"unit":"0.50","currency":"CHF"}`)
	gid := g["id"].(string)
	game := mustStatus(t, do(t, h, "POST", "/api/games", zugerEvening(gid, "Anna", "Ben", "Cleo", "Dan")), 201).json(t)["id"].(string)
	mustStatus(t, do(t, h, "POST", "/api/groups/"+gid+"/payments", `{"from":"Ben","to":"Anna","amount":"1"}`), 201)
	eventsBefore := do(t, h, "GET", "/api/groups/"+gid+"/events", "").body
	for _, c := range []struct {
		method, path, body string
		status             int
		says               string
	}{
		{"POST", "/api/groups", `{"name":x}`, 400, "not valid JSON"},
		{"POST", "/api/groups", `{"name":"x","players":"Anna"}`, 400, "players: must be a list, not a string"},
		{"POST", "/api/groups", `{"name":" "}`, 422, "name: give the group a name"},
		{"POST", "/api/groups", `{"name":"x","unit":"0"}`, 422, "unit:"},
		{"POST", "/api/groups", `{"name":"x","currency":"francs"}`, 422, "currency:"},
		{"POST", "/api/groups", `{"name":"x","players":["Anna","anna"]}`, 422, "the same name written differently"},
		{"POST", "/api/groups", `{"name":"x","colour":"red"}`, 422, "colour"},
		{"GET", "/api/groups/nosuchgroup", "", 404, "there is no group with this id"},
		{"GET", "/api/groups/nosuchgroup/tab", "", 404, "there is no group with this id"},
		{"GET", "/api/groups/nosuchgroup/stats", "", 404, "there is no group with this id"},
		{"GET", "/api/r/nosuchkey/tab", "", 404, "there is no game with this id"},
		{"POST", "/api/groups/nosuchgroup/payments", `{"from":"Ben","to":"Anna","amount":"1"}`, 404, "there is no group with this id"},
		{"GET", "/api/groups/" + game, "", 404, "there is no group with this id"},
		{"GET", "/api/games/" + gid + "/ledger", "", 404, "there is no game with this id"},
		{"POST", "/api/games/" + gid + "/hands", `{"contract":"pass"}`, 404, "there is no game with this id"},
		{"POST", "/api/games", zugerEvening("nosuchgroup", "Anna", "Ben", "Cleo", "Dan"), 422, "group: there is no group with this id"},
		{"POST", "/api/games", `{"variant":"zuger","players":["Anna","Ben","Cleo","Dan"],"unit":"1","group":"` + gid + `"}`, 422, "unit: one unit of this group's evenings is worth 0.50, not 1"},
		{"POST", "/api/games", `{"variant":"zuger","players":["Anna","Ben","Cleo","Dan"],"currency":"EUR","group":"` + gid + `"}`, 422, `currency: this group's evenings play in CHF, not "EUR"`},
		{"POST", "/api/games", zugerEvening(gid, "anna", "Ben", "Cleo", "Dan"), 422, `"anna" is a member of this group written "Anna"`},
		{"POST", "/api/groups/" + gid + "/payments", `{"from":"Zoe","to":"Anna","amount":"1"}`, 422, `from: "Zoe" is not a member of this group; the members are Anna, Ben, Cleo, Dan`},
		{"POST", "/api/groups/" + gid + "/payments", `{"from":"Ben","to":"Zoe","amount":"1"}`, 422, `to: "Zoe" is not a member`},
		{"POST", "/api/groups/" + gid + "/payments", `{"from":"Ben","to":"Ben","amount":"1"}`, 422, "to: Ben cannot pay themselves"},
		{"POST", "/api/groups/" + gid + "/payments", `{"from":"Ben","to":"Anna","amount":"0"}`, 422, "amount: 0 is not above 0"},
		{"POST", "/api/groups/" + gid + "/payments", `{"from":"Ben","to":"Anna","amount":"-3.50"}`, 422, "amount: -3.50 is not above 0"},
		{"POST", "/api/groups/" + gid + "/payments", `{"from":"Ben","to":"Anna","amount":"3.505"}`, 422, "amount: 3.505 has more decimal places than this group's money, which has 2"},
		{"POST", "/api/groups/" + gid + "/payments", `{"from":"Ben","to":"Anna"}`, 422, "amount: give the amount paid"},
		{"POST", "/api/groups/" + gid + "/payments", `{"from":"Ben","to":"Anna","amount":"1","amount":"100"}`, 400, `names "amount" twice`},
		{"POST", "/api/groups/" + gid + "/payments", `{"from":"Ben","to":"Anna","Amount":"100"}`, 422, `"Amount" is not a field`},
		{"POST", "/api/groups/" + gid + "/payments", `{"from":"Ben","to":"Anna","amount":true}`, 400, "amount: must be an amount such as \"3.50\", not a boolean"},
		{"POST", "/api/groups/" + gid + "/payments", `{"to":"Anna","amount":"1"}`, 422, "from: say which member paid"},
		{"POST", "/api/groups/" + gid + "/payments", `{"from":"Ben","to":"Anna","amount":"1","note":"` + strings.Repeat("x", 201) + `"}`, 422, "note: 201 characters"},
		{"POST", "/api/groups/" + gid + "/payments", `{"from":"Ben","to":"Anna","amount":"1","via":"bank"}`, 422, "via"},
		{"POST", "/api/groups/" + gid + "/payments/9/void", `{"reason":"x"}`, 404, "there is no payment 9 in this group"},
		{"POST", "/api/groups/" + gid + "/payments/x/void", `{"reason":"x"}`, 404, `there is no payment "x" in this group`},
		{"POST", "/api/groups/" + gid + "/payments/1/void", `{}`, 422, "reason: say why this payment is voided"},
		{"POST", "/api/groups/" + gid + "/members", `{"players":["ben"]}`, 422, `"ben" is a member of this group written "Ben"`},
	} {
		t.Run(c.method+" "+c.path+" "+c.body, func(t *testing.T) {
			r := do(t, h, c.method, c.path, c.body)
			if r.status != c.status || !strings.Contains(r.json(t)["error"].(string), c.says) {
				t.Fatalf("%d %s, want %d saying %q", r.status, r.body, c.status, c.says)
			}
		})
	}
	if after := do(t, h, "GET", "/api/groups/"+gid+"/events", "").body; after != eventsBefore {
		t.Fatalf("a refused request changed the group:\n%s\n%s", eventsBefore, after)
	}
	mustStatus(t, do(t, h, "POST", "/api/groups/"+gid+"/payments/1/void", `{"reason":"mistake"}`), 200)
	r := mustStatus(t, do(t, h, "POST", "/api/groups/"+gid+"/payments/1/void", `{"reason":"mistake"}`), 409)
	if !strings.Contains(r.body, "payment 1 is already voided") {
		t.Fatalf("void twice: %s", r.body)
	}
	// An Idempotency-Key used for a payment is not one for a void.
	mustStatus(t, do(t, h, "POST", "/api/groups/"+gid+"/payments", `{"from":"Ben","to":"Anna","amount":"1"}`, "Idempotency-Key", "k"), 201)
	mustStatus(t, do(t, h, "POST", "/api/groups/"+gid+"/payments/2/void", `{"reason":"x"}`, "Idempotency-Key", "k"), 422)

	// A key that started a group is not one to start a game with, and
	// the other way round: 422, nothing made.
	mustStatus(t, do(t, h, "POST", "/api/groups", `{"name":"K","players":["Anna"]}`, "Idempotency-Key", "made-a-group"), 201)
	groupBefore := do(t, h, "GET", "/api/groups/"+gid, "").body
	for _, body := range []string{`{"variant":"zuger","players":["Anna","Ben","Cleo","Dan"]}`, `{"variant":"zuger","players":["Anna","Ben","Cleo","Xena"],"group":"` + gid + `"}`} {
		if r := do(t, h, "POST", "/api/games", body, "Idempotency-Key", "made-a-group"); r.status != 422 || !strings.Contains(r.body, "Idempotency-Key was already used") {
			t.Fatalf("a group's key used to start a game: %d %s", r.status, r.body)
		}
	}
	if after := do(t, h, "GET", "/api/groups/"+gid, "").body; after != groupBefore {
		t.Fatalf("a refused evening changed the group:\n%s\n%s", groupBefore, after)
	}
	mustStatus(t, do(t, h, "POST", "/api/games", `{"variant":"zuger","players":["W","X","Y","Z"]}`, "Idempotency-Key", "made-a-game"), 201)
	if r := do(t, h, "POST", "/api/groups", `{"name":"K2"}`, "Idempotency-Key", "made-a-game"); r.status != 422 {
		t.Fatalf("a game's key used to start a group: %d %s", r.status, r.body)
	}

	// A key that started another game, sent again to start an evening of
	// the group with new players, is refused and changes nothing: no new
	// member, no evening listed (the join was once written first).
	mustStatus(t, do(t, h, "POST", "/api/games", `{"variant":"zuger","players":["W","X","Y","Z"]}`, "Idempotency-Key", "start-1"), 201)
	before := do(t, h, "GET", "/api/groups/"+gid, "").body
	r = mustStatus(t, do(t, h, "POST", "/api/games", `{"variant":"zuger","players":["Anna","Ben","Quinn","Rosa"],"group":"`+gid+`"}`,
		"Idempotency-Key", "start-1"), 422)
	if !strings.Contains(r.body, "Idempotency-Key was already used") {
		t.Fatalf("a key used to start another game: %s", r.body)
	}
	if after := do(t, h, "GET", "/api/groups/"+gid, "").body; after != before {
		t.Fatalf("a refused evening changed the group:\n%s\n%s", before, after)
	}
}

// raw sends a request with an empty JSON body and gives the whole answer,
// headers too.
func raw(t *testing.T, h http.Handler, method, path string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(method, path, strings.NewReader("{}"))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}
