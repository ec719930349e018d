package web

import (
	"strings"
	"time"

	"tappbook/templates"
)

// whenOf is a moment as a page shows it: in the server's time zone, to the
// second, the minute, the clock's hours and minutes or the day, with the
// instant beside it, from which the page's script shows it in the phone's
// own zone (a server left on UTC would put every time an hour or more off).
func whenOf(t time.Time, show string) templates.When {
	layout := map[string]string{"second": "2006-01-02 15:04:05", "minute": "2006-01-02 15:04", "clock": "15:04", "date": "2006-01-02"}[show]
	return templates.When{Text: t.In(time.Local).Format(layout), UTC: t.UTC().Format(time.RFC3339), Show: show}
}

// timeMark stands where a sentence puts a time, so that the page can show
// the time as a <time> element within it.
const timeMark = "\x00"

// aroundTime splits a sentence at its time: what comes before and after.
func aroundTime(s string) (before, after string) {
	before, after, _ = strings.Cut(s, timeMark)
	return before, after
}
