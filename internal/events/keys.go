package events

import (
	"fmt"
	"time"
)

// Key makes an append idempotent: a retry of the same request with the
// same key writes nothing and gets the first answer. The key is bound to
// the request it came with by its fingerprint, and expires (Options.KeyTTL).
type Key struct {
	// Scope is where the key is unique: the stream appended to, or a kind
	// of request (such as "create") when the stream is new each time.
	Scope string
	// Name is the client's key: 1–255 printable ASCII characters; "" for an
	// append without a key.
	Name string
	// Fingerprint says what the request was (for example a hash of the
	// command); required with a Name. The same key with another
	// fingerprint is a *KeyReusedError.
	Fingerprint []byte
}

// MaxKeyLen is the longest key name: enough for any scheme of ids a client
// may use, short enough that keys cannot fill the disk or the index.
const MaxKeyLen = 255

// DefaultKeyTTL is how long a key is remembered by default: a client
// retries within seconds or minutes; a day covers a phone that was off.
const DefaultKeyTTL = 24 * time.Hour

// CheckKeyName refuses a key name that is empty, longer than MaxKeyLen or
// holds anything but printable ASCII (space to tilde), with a *KeyError.
func CheckKeyName(name string) error {
	if name == "" || len(name) > MaxKeyLen {
		return &KeyError{Name: name}
	}
	for i := 0; i < len(name); i++ {
		if name[i] < ' ' || name[i] > '~' {
			return &KeyError{Name: name}
		}
	}
	return nil
}

// check is the Key as an append or a look-up must have it.
func (k Key) check() error {
	if k.Name == "" {
		return nil
	}
	if err := CheckKeyName(k.Name); err != nil {
		return err
	}
	if len(k.Scope) > MaxKeyLen {
		return fmt.Errorf("idempotency key scope %.40q…: longer than %d characters", k.Scope, MaxKeyLen)
	}
	if len(k.Fingerprint) == 0 {
		return fmt.Errorf("idempotency key %q: no fingerprint of the request", k.Name)
	}
	return nil
}
