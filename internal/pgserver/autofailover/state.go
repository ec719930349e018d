package autofailover

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// State is a node as the monitor sees it: the state its keeper reported
// and the one the monitor assigned.
type State struct {
	Name, Reported, Goal string
	Port                 int
}

func (s State) String() string { return fmt.Sprintf("%s %s→%s", s.Name, s.Reported, s.Goal) }

// States asks the monitor for every node's state.
func (c *Cluster) States(ctx context.Context) ([]State, error) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, superURL(c.monitorPort, "pg_auto_failover"))
	if err != nil {
		return nil, err
	}
	defer conn.Close(context.Background())
	rows, err := conn.Query(ctx, `SELECT nodename, nodeport, reportedstate::text, goalstate::text FROM pgautofailover.node ORDER BY nodeid`)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (State, error) {
		var s State
		err := r.Scan(&s.Name, &s.Port, &s.Reported, &s.Goal)
		return s, err
	})
}

// waitFor waits, for up to two minutes, until the monitor's states are
// as ok wants them.
func (c *Cluster) waitFor(ctx context.Context, ok func([]State) bool) error {
	deadline := time.Now().Add(2 * time.Minute)
	var last []State
	var err error
	for time.Now().Before(deadline) && ctx.Err() == nil {
		last, err = c.States(ctx)
		if err == nil && ok(last) {
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return fmt.Errorf("the cluster did not reach the state wanted within two minutes: %v (%v)", last, err)
}

// WaitHealthy waits until one node is primary and the other its
// secondary, and gives the primary.
func (c *Cluster) WaitHealthy(ctx context.Context) (*Node, error) {
	var primary string
	err := c.waitFor(ctx, func(s []State) bool {
		if len(s) != 2 {
			return false
		}
		for i, n := range s {
			o := s[1-i]
			if n.Reported == "primary" && n.Goal == "primary" && o.Reported == "secondary" && o.Goal == "secondary" {
				primary = n.Name
				return true
			}
		}
		return false
	})
	if err != nil {
		return nil, err
	}
	return c.node(primary), nil
}

// WaitPromoted waits until the monitor has made other than old the
// primary taking writes (alone: wait_primary, the old one not back yet).
func (c *Cluster) WaitPromoted(ctx context.Context, old *Node) (*Node, error) {
	var primary string
	err := c.waitFor(ctx, func(s []State) bool {
		for _, n := range s {
			if n.Name != old.Name && strings.HasSuffix(n.Reported, "primary") && n.Reported == n.Goal && n.Reported != "draining" {
				primary = n.Name
				return true
			}
		}
		return false
	})
	if err != nil {
		return nil, err
	}
	return c.node(primary), nil
}

func (c *Cluster) node(name string) *Node {
	for _, n := range c.Nodes {
		if n.Name == name {
			return n
		}
	}
	return nil
}
