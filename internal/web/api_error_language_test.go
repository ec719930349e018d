package web

import (
	"net/http"
	"testing"
)

// A refusal of the rules is said in the language the client asks for, its
// field first; without Accept-Language (a script) it is api.md's English,
// and what the domain did not say (malformed JSON) stays English.
func TestAPIRefusalsInTheClientsLanguage(t *testing.T) {
	h := newServer(t)
	id := createGame(t, h, `{"variant":"zuger","players":["Anna","Ben","Cleo","Dan"]}`)
	hands := "/api/games/" + id + "/hands"
	for _, c := range []struct {
		lang, body string
		status     int
		want       string
	}{
		{"", `{"contract":"solo","declarer":"Ben","points":130}`, http.StatusUnprocessableEntity, `{"error":"points: 130 is outside 0–120, the card points in the pack"}`},
		{"de-CH,de;q=0.9", `{"contract":"solo","declarer":"Ben","points":130}`, http.StatusUnprocessableEntity, `{"error":"points: Die Augen müssen zwischen 0 und 120 liegen (alle Augen im Spiel), nicht 130."}`},
		{"sv", `{"contract":"solo","declarer":"Zoe","points":70}`, http.StatusUnprocessableEntity, `{"error":"declarer: ”Zoe” spelar inte den här kvällen (Anna, Ben, Cleo, Dan)."}`},
		{"de", `{"contract":`, http.StatusBadRequest, `{"error":"the request body is cut short: it is not complete JSON"}`},
	} {
		r := mustStatus(t, do(t, h, "POST", hands, c.body, "Accept-Language", c.lang), c.status)
		if r.body != c.want+"\n" {
			t.Errorf("Accept-Language %q, %s:\n got %s want %s", c.lang, c.body, r.body, c.want)
		}
	}
}
