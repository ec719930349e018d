package web

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// BenchmarkRecordWithStreams records deals through the HTTP API with 0 and
// with 100 phones following the game live (server-sent events), so the two
// can be compared: open streams should not slow recording.
func BenchmarkRecordWithStreams(b *testing.B) {
	for _, streams := range []int{0, 100} {
		b.Run(fmt.Sprintf("streams=%d", streams), func(b *testing.B) {
			srv := httptest.NewServer(newServerF(b))
			defer srv.Close()
			res, err := http.Post(srv.URL+"/api/games", "application/json", strings.NewReader(zugerGame))
			if err != nil {
				b.Fatal(err)
			}
			var id string
			fmt.Sscanf(readAll(res), `{"id":%q`, &id)
			for range streams {
				s, err := http.Get(srv.URL + "/g/" + id + "/live")
				if err != nil {
					b.Fatal(err)
				}
				go func() { // read like a phone would
					sc := bufio.NewScanner(s.Body)
					for sc.Scan() {
					}
				}()
				defer s.Body.Close()
			}
			b.ResetTimer()
			for b.Loop() {
				r, err := http.Post(srv.URL+"/api/games/"+id+"/hands", "application/json", strings.NewReader(`{"contract":"solo","declarer":"Ben","points":70,"tricks":5}`))
				if err != nil || r.StatusCode != 201 {
					b.Fatalf("record: %v %v", err, r)
				}
				io.Copy(io.Discard, r.Body) // read it all, so the connection is kept
				r.Body.Close()
			}
		})
	}
}

func readAll(r *http.Response) string {
	defer r.Body.Close()
	var sb strings.Builder
	sc := bufio.NewScanner(r.Body)
	for sc.Scan() {
		sb.WriteString(sc.Text())
	}
	return sb.String()
}

// BenchmarkRecordParallel records deals from several clients at once, each
// on its own game, for profiling the path group commit shares.
func BenchmarkRecordParallel(b *testing.B) {
	srv := httptest.NewServer(newServerF(b))
	defer srv.Close()
	b.SetParallelism(2) // 4 clients on 2 cores
	b.RunParallel(func(pb *testing.PB) {
		res, err := http.Post(srv.URL+"/api/games", "application/json", strings.NewReader(zugerGame))
		if err != nil {
			b.Error(err)
			return
		}
		var id string
		fmt.Sscanf(readAll(res), `{"id":%q`, &id)
		for pb.Next() {
			r, err := http.Post(srv.URL+"/api/games/"+id+"/hands", "application/json", strings.NewReader(`{"contract":"solo","declarer":"Ben","points":70,"tricks":5}`))
			if err != nil || r.StatusCode != 201 {
				b.Errorf("record: %v %v", err, r)
				return
			}
			io.Copy(io.Discard, r.Body)
			r.Body.Close()
		}
	})
}

// BenchmarkCheckJSON is the strict check every API body passes before it
// is decoded (strictjson.go), on a deal's body: paid on every request.
func BenchmarkCheckJSON(b *testing.B) {
	body := []byte(`{"contract":"solo","declarer":"Ben","points":70,"tricks":5}`)
	b.ReportAllocs()
	for b.Loop() {
		var hb handBody
		if err := checkJSON(body, &hb); err != nil {
			b.Fatal(err)
		}
	}
}
