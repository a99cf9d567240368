module github.com/acme/ratelimiter

go 1.22

require golang.org/x/time v0.5.0
