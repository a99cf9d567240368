package activities

import (
	"context"
	"testing"
)

type fakeMailer struct{ sent int }

func (f *fakeMailer) Send(ctx context.Context, to, subject, body string) error { f.sent++; return nil }

func TestSendReceipt(t *testing.T) {
	m := &fakeMailer{}
	a := &Activities{Mailer: m}
	if err := a.SendReceipt(context.Background(), "a@b.c", "42"); err != nil || m.sent != 1 {
		t.Fatalf("err=%v sent=%d", err, m.sent)
	}
}
