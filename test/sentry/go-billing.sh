#!/bin/bash
# How the Go events of test/sentry/server-sdk-events.ts were made: a small billing service using the unmodified Go SDK
# (getsentry/sentry-go 0.11.0, Debian's golang-github-getsentry-sentry-go-dev, with golang-go 1.19 and
# golang-github-pkg-errors-dev), whose transport prints each event as the SDK would post it. Not run by the tests:
# installing Go and the SDK costs more than a minute of CI (measured: 76 s of apt-get on the shared 2-core machine).
#   test/sentry/go-billing.sh /tmp/build-a 0 && HOST=billing-1 RELEASE=billing@1.4.2 /tmp/go-billing-build-a
# $1: a GOPATH checkout to build in; $2: lines added above the bug (a later release); the binary is /tmp/go-billing-<name of $1>.
# The binary reads HOST, RELEASE, FN (charge, refund: another function, legacy: ChargeCard of another package) and
# PREFIX (set: the request goes through one more net/http handler, http.StripPrefix).
set -euo pipefail
root=$1; shift_lines=$2
mkdir -p $root/src/example.com/billing/payments $root/src/example.com/billing/legacy $root/src/example.com/billing/cmd/billing
pad=$(for i in $(seq 1 $shift_lines); do echo "// (a line added in this release)"; done)
cat > $root/src/example.com/billing/payments/payments.go <<GO
package payments

import "github.com/pkg/errors"

$pad
// ChargeCard asks the gateway to charge the card; the gateway declines.
func ChargeCard(cents int) error {
	return errors.Errorf("card declined for %d cents", cents)
}

// RefundCard gives money back; the gateway declines too.
func RefundCard(cents int) error {
	return errors.Errorf("card declined for %d cents", cents)
}
GO
cat > $root/src/example.com/billing/legacy/legacy.go <<GO
package legacy

import "github.com/pkg/errors"

// ChargeCard is the old gateway's: the same name in another package.
func ChargeCard(cents int) error {
	return errors.Errorf("card declined for %d cents", cents)
}
GO
cat > $root/src/example.com/billing/cmd/billing/main.go <<'GO'
package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"time"

	"example.com/billing/legacy"
	"example.com/billing/payments"
	"github.com/getsentry/sentry-go"
)

// printTransport writes each event as the SDK would post it, one JSON per line.
type printTransport struct{}

func (printTransport) Configure(sentry.ClientOptions) {}
func (printTransport) SendEvent(e *sentry.Event) {
	b, _ := json.Marshal(e)
	fmt.Println(string(b))
}
func (printTransport) Flush(time.Duration) bool { return true }

func handle(charge func(int) error) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if err := charge(1250); err != nil {
			sentry.CaptureException(err)
			w.WriteHeader(http.StatusPaymentRequired)
		}
	}
}

func main() {
	sentry.Init(sentry.ClientOptions{Dsn: "http://public@localhost/1", Transport: printTransport{}, Release: os.Getenv("RELEASE"), ServerName: os.Getenv("HOST"), Environment: "production"})
	var fn func(int) error
	switch os.Getenv("FN") {
	case "refund":
		fn = payments.RefundCard
	case "legacy":
		fn = legacy.ChargeCard
	default:
		fn = payments.ChargeCard
	}
	var h http.Handler = handle(fn)
	if os.Getenv("PREFIX") != "" {
		h = http.StripPrefix("/api", h)
	}
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("POST", "/api/charge", nil))
	sentry.Flush(time.Second)
}
GO
cd $root/src/example.com/billing/cmd/billing && GO111MODULE=off GOPATH=$root:/usr/share/gocode go build -o /tmp/go-billing-$(basename $root) .
