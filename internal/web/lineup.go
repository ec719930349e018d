package web

import (
	"net/url"
	"strconv"
	"strings"
)

// seatsFromLineUp reads a group evening's line-up (templates' lineUp):
// each seat's member tapped (seat{i}), or a name typed for it (other{i}),
// which wins. It gives them as the "player" fields the start form reads,
// so that one way in checks and starts every evening. A form without a
// line-up (an evening of no group, a script's post) is left as it is.
func seatsFromLineUp(form url.Values, seats int) {
	var players []string
	picked := false
	for i := range seats {
		k := strconv.Itoa(i)
		_, tapped := form["seat"+k]
		_, typed := form["other"+k]
		picked = picked || tapped || typed
		name := strings.TrimSpace(form.Get("other" + k))
		if name == "" {
			name = form.Get("seat" + k)
		}
		players = append(players, name)
	}
	if picked {
		form["player"] = players
	}
}
