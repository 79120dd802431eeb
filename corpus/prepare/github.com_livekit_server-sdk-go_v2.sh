# livekit replaces pion's webrtc and ice with forks the module proxy does
# not serve: use upstream pion. The root package (lksdk) then does not
# type-check (transport.go uses the forks' dtls/v4 API) and is left out;
# e2ee, pkg/... and the examples are analysed.
if grep -q '^replace\|=> github.com/livekit/webrtc-pion\|=> github.com/livekit/ice' go.mod; then
	go mod edit -dropreplace=github.com/pion/webrtc/v4 -dropreplace=github.com/pion/ice/v4
	go get github.com/pion/webrtc/v4@v4.2.27 >/dev/null 2>&1 || true
	go mod tidy >/dev/null 2>&1 || true
fi
