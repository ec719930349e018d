package web

import (
	"net/http"
	"runtime"
	"testing"

	"github.com/klauspost/compress/gzip"
)

// countWriter counts the bytes written to it and keeps none.
type countWriter int

func (c *countWriter) Write(p []byte) (int, error) {
	*c += countWriter(len(p))
	return len(p), nil
}

// BenchmarkGzipPage gzips the table page of a 700-deal evening (the
// page a phone is sent after saving a deal) at each level klauspost
// offers, with one writer reused from page to page, written as gzhttp
// writes it: the first 1,024 bytes it held back, then the rest. ns/op and
// B/op are one page's gzipping; gz-B is the page as sent; retained-B is
// what one writer holds once it has gzipped a page, the heap a writer
// kept for good costs.
//
//	go test -run '^$' -bench BenchmarkGzipPage -benchmem ./internal/web/
func BenchmarkGzipPage(b *testing.B) {
	h, _, id := longServer(b)
	page := serve(b, h, httptestGET("/g/"+id+"?saved=1"), http.StatusOK).Body.Bytes()
	levels := []struct {
		name  string
		level int
	}{
		{"stateless", gzip.StatelessCompression},
		{"huffman-only", gzip.HuffmanOnly},
		{"level=1", gzip.BestSpeed},
		{"level=2", 2},
		{"level=3", 3},
		{"level=4", 4},
		{"level=5", 5},
		{"level=6", 6},
	}
	for _, l := range levels {
		b.Run(l.name, func(b *testing.B) {
			var out countWriter
			zw, err := gzip.NewWriterLevel(&out, l.level)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				out = 0
				zw.Reset(&out)
				gzipPage(b, zw, page)
			}
			b.ReportMetric(float64(out), "gz-B")
			b.ReportMetric(float64(len(page)), "page-B")
			b.ReportMetric(retained(b, l.level, page), "retained-B")
		})
	}
}

// httptestGET asks for a page as a browser that does not take gzip.
func httptestGET(target string) *http.Request {
	req := phoneGET(target)
	req.Header.Del("Accept-Encoding")
	return req
}

func gzipPage(b *testing.B, zw *gzip.Writer, page []byte) {
	head := min(len(page), 1024)
	if _, err := zw.Write(page[:head]); err != nil {
		b.Fatal(err)
	}
	if _, err := zw.Write(page[head:]); err != nil {
		b.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		b.Fatal(err)
	}
}

// retained is the heap one writer at level holds after gzipping page:
// the mean over a few, measured with the collector run before and after
// (to within a few KB: what else the test process frees meanwhile).
func retained(b *testing.B, level int, page []byte) float64 {
	const n = 16
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	kept := make([]*gzip.Writer, n)
	for i := range kept {
		var out countWriter
		zw, err := gzip.NewWriterLevel(&out, level)
		if err != nil {
			b.Fatal(err)
		}
		gzipPage(b, zw, page)
		zw.Reset(nil)
		kept[i] = zw
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(kept)
	return float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / n
}
