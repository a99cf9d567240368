package lookup

import "testing"

func TestParseIP(t *testing.T) {
	if _, err := parseIP("10.0.0.1"); err != nil {
		t.Fatal(err)
	}
	if _, err := parseIP("nope"); err == nil {
		t.Fatal("expected error")
	}
}
