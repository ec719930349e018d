package events

import "time"

// StampTime is the time an append records its events at (all of one
// append's share it): the clock's, to the microsecond, but never earlier
// than the time of the stream's last event (last; zero for a new stream).
//
// Import refuses a stream whose times go backwards (internal/game
// checkTimes), so a stream this server writes must never do so, whatever
// its clock says: an import may bring events stamped by a machine whose
// clock ran a few minutes ahead (import allows that much), and this
// server's own clock may step back (NTP). Then the new events take the
// last one's time, as a hybrid logical clock would, until the clock
// catches up. Every engine stamps its appends here.
func StampTime(now, last time.Time) time.Time {
	at := now.UTC().Truncate(time.Microsecond)
	if at.Before(last) {
		return last.UTC()
	}
	return at
}
