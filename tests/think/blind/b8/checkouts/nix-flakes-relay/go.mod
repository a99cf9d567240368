module github.com/acme/relay

go 1.23
