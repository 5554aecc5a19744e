package meta

import "testing"

// acl builds a posix_acl_xattr value with the given tags.
func aclValue(version uint32, tags ...uint16) []byte {
	b := []byte{byte(version), byte(version >> 8), byte(version >> 16), byte(version >> 24)}
	for _, t := range tags {
		b = append(b, byte(t), byte(t>>8), 7, 0, 0xff, 0xff, 0xff, 0xff)
	}
	return b
}

func TestACLNontrivial(t *testing.T) {
	base := []uint16{aclUserObj, aclGroupObj, aclOther}
	for _, c := range []struct {
		name string
		val  []byte
		dflt bool
		want bool
	}{
		{"base entries", aclValue(2, base...), false, false},
		{"named user", aclValue(2, aclUserObj, aclUser, aclGroupObj, aclMask, aclOther), false, true},
		{"named group", aclValue(2, aclUserObj, aclGroupObj, aclGroup, aclMask, aclOther), false, true},
		{"mask alone", aclValue(2, aclUserObj, aclGroupObj, aclMask, aclOther), false, true},
		{"default, base entries", aclValue(2, base...), true, true},
		{"default, empty", aclValue(2), true, false},
		{"empty value", nil, false, false},
		{"version 1", aclValue(1, aclUserObj, aclUser, aclOther), false, false},
		{"unknown tag", aclValue(2, aclUserObj, aclUser, 0x40), false, false},
		{"truncated entry", aclValue(2, aclUserObj, aclUser)[:15], false, false},
	} {
		if got := aclNontrivial(c.val, c.dflt); got != c.want {
			t.Errorf("%s: aclNontrivial = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestValidCaps(t *testing.T) {
	for _, c := range []struct {
		rev  byte
		size int
		want bool
	}{
		{1, 12, true}, {2, 20, true}, {3, 24, true},
		{2, 12, false}, {3, 20, false}, {4, 24, false}, {2, 3, false},
	} {
		val := make([]byte, c.size)
		if c.size >= 4 {
			val[3] = c.rev
		}
		if got := validCaps(val); got != c.want {
			t.Errorf("revision %d, %d bytes: validCaps = %v, want %v", c.rev, c.size, got, c.want)
		}
	}
}
