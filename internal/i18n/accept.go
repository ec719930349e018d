package i18n

import "sync"

// acceptedKept bounds the Accept-Language headers remembered, and
// acceptedLongest the length of one worth remembering: at most ~64 KB,
// whatever clients send.
const (
	acceptedKept    = 256
	acceptedLongest = 256
)

// accepted remembers the language matched for the Accept-Language headers
// seen lately. The phones at a table send the same header with every
// request, and matching it anew (parsing it, asking the matcher) costs
// ~25 allocations and several µs, twice for each deal recorded through the
// form (the post and the page it is sent to).
type accepted struct {
	mu    sync.Mutex
	langs map[string]string // header → language
}

func (a *accepted) get(header string) (string, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	lang, ok := a.langs[header]
	return lang, ok
}

// put remembers a header's language; when full, it forgets them all and
// starts again (those still in use come back at their next request).
func (a *accepted) put(header, lang string) {
	if len(header) > acceptedLongest {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.langs == nil || len(a.langs) >= acceptedKept {
		a.langs = make(map[string]string, acceptedKept)
	}
	a.langs[header] = lang
}
