package activities

import "context"

type Mailer interface {
	Send(ctx context.Context, to, subject, body string) error
}

type Activities struct{ Mailer Mailer }

func (a *Activities) SendReceipt(ctx context.Context, to, orderID string) error {
	return a.Mailer.Send(ctx, to, "Your receipt", "Order "+orderID)
}
