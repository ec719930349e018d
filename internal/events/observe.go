package events

import "time"

// CommitObserver hears of every commit that made appends durable: how many
// appends (requests) and events it carried, and how long the commit itself
// took (SQLite: the COMMIT, which is the fsync of the WAL; PostgreSQL: the
// transaction, from BEGIN to the COMMIT's answer). /metrics counts them (--metrics-addr)
// without the store knowing of Prometheus. It is called on the committing
// goroutine, so it must be quick and must not block.
type CommitObserver interface {
	Committed(appends, events int, commit time.Duration)
}
