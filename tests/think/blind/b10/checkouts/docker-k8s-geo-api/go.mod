module github.com/acme/geo-api

go 1.22

require github.com/oschwald/geoip2-golang v1.9.0
