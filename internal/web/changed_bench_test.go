package web

import (
	"net/http"
	"strings"
	"testing"
)

// BenchmarkEventsChanged answers /events and the History's latest page of
// a 700-deal evening, never corrected and then with deal 1 corrected: the
// corrected evening is folded as it is read, to its last correction, so
// that the correction's entry says what it changed downstream. The
// difference is what "changed" costs.
//
//	go test -run '^$' -bench BenchmarkEventsChanged -benchmem ./internal/web/
func BenchmarkEventsChanged(b *testing.B) {
	h, _, id := longServer(b)
	run := func(name string) {
		b.Run(name+"/events", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				serve(b, h, phoneGET("/api/games/"+id+"/events"), http.StatusOK)
			}
		})
		b.Run(name+"/history", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				serve(b, h, phoneGET("/g/"+id+"/audit"), http.StatusOK)
			}
		})
	}
	run("uncorrected")
	put := httpPut("/api/games/"+id+"/hands/1", `{"contract":"solo","declarer":"Cleo","points":70,"tricks":5}`)
	serve(b, h, put, http.StatusOK)
	run("corrected")
}

func httpPut(target, body string) *http.Request {
	req, _ := http.NewRequest("PUT", target, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.RemoteAddr = "192.0.2.1:1234"
	return req
}
