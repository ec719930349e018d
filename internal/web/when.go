package web

import (
	"strings"
	"time"

	"tappbook/templates"
)

// whenOf is a moment as a page shows it (the deals CSV takes its text): in
// the server's time zone, to the second, the minute, the clock's hours and
// minutes or the day, with the instant beside it, from which the page's
// script shows it in the phone's own zone (a server left on UTC would put
// every time an hour or more off).
func whenOf(t time.Time, show string) templates.When {
	var layout string
	switch show {
	case "second":
		layout = "2006-01-02 15:04:05"
	case "minute":
		layout = "2006-01-02 15:04"
	case "clock":
		layout = "15:04"
	case "date":
		layout = "2006-01-02"
	default:
		panic("whenOf: show " + show + " is none of second, minute, clock, date") // a caller's typo, caught by any test of its page
	}
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
