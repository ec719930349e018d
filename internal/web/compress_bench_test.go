package web

import (
	"net/http"
	"runtime"
	"testing"

	"github.com/klauspost/compress/gzhttp/writer"
	"github.com/klauspost/compress/gzip"
)

// countWriter counts the bytes written to it and keeps none.
type countWriter int

func (c *countWriter) Write(p []byte) (int, error) {
	*c += countWriter(len(p))
	return len(p), nil
}

// BenchmarkGzipPage gzips the table page of a 700-deal evening (the
// page a phone is sent after saving a deal), written as gzhttp writes it
// (the first 1,024 bytes it held back, then the rest): by the writers
// the server keeps (kept: stateless, the page gathered first), and by one
// writer reused at each level klauspost offers. ns/op and B/op are one
// page's gzipping; gz-B is the page as sent; retained-B is what one
// writer holds once it has gzipped a page, the heap a writer kept for
// good costs. The page is gzipped here with the writer's tables hot in
// the cache, as they are not between the pages a server renders: compare
// in BenchmarkTablePage too.
//
//	go test -run '^$' -bench BenchmarkGzipPage -benchmem ./internal/web/
func BenchmarkGzipPage(b *testing.B) {
	h, _, id := longServer(b)
	page := serve(b, h, httptestGET("/g/"+id+"?saved=1"), http.StatusOK).Body.Bytes()
	cases := []struct {
		name string
		new  func() func(*countWriter) writer.GzipWriter // a maker of writers for one page each
	}{
		{"kept", func() func(*countWriter) writer.GzipWriter {
			kept := newKeptGzip(1)
			return func(out *countWriter) writer.GzipWriter { return kept.lend(out, 0) }
		}},
		{"stateless", reused(gzip.StatelessCompression)},
		{"huffman-only", reused(gzip.HuffmanOnly)},
		{"level=1", reused(gzip.BestSpeed)},
		{"level=2", reused(2)},
		{"level=3", reused(3)},
		{"level=4", reused(4)},
		{"level=5", reused(5)},
		{"level=6", reused(6)},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			var out countWriter
			next := c.new()
			b.ReportAllocs()
			for b.Loop() {
				out = 0
				gzipPage(b, next(&out), page)
			}
			b.ReportMetric(float64(out), "gz-B")
			b.ReportMetric(float64(len(page)), "page-B")
			b.ReportMetric(retained(b, c.new, page), "retained-B")
		})
	}
}

// reused makes one writer at level and gives it, reset, for each page.
func reused(level int) func() func(*countWriter) writer.GzipWriter {
	return func() func(*countWriter) writer.GzipWriter {
		zw, _ := gzip.NewWriterLevel(nil, level)
		return func(out *countWriter) writer.GzipWriter {
			zw.Reset(out)
			return zw
		}
	}
}

// httptestGET asks for a page as a browser that does not take gzip.
func httptestGET(target string) *http.Request {
	req := phoneGET(target)
	req.Header.Del("Accept-Encoding")
	return req
}

func gzipPage(b *testing.B, zw writer.GzipWriter, page []byte) {
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

// retained is the heap one writer holds after gzipping page: the mean
// over a few, measured with the collector run twice before and after, so
// that what sync.Pools hold (the stateless compressor's scratch) is not
// counted.
func retained(b *testing.B, maker func() func(*countWriter) writer.GzipWriter, page []byte) float64 {
	const n = 16
	var before, after runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&before)
	kept := make([]func(*countWriter) writer.GzipWriter, n)
	for i := range kept {
		kept[i] = maker()
		var out countWriter
		gzipPage(b, kept[i](&out), page)
	}
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(kept)
	return float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / n
}
