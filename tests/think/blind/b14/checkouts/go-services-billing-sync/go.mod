module github.com/acme/billing-sync

go 1.23

require github.com/stripe/stripe-go/v79 v79.12.0
