# serve_helpers.sh — sourced by the tests of tests/web: starts `houserules serve --port 0` in the background and sets
# $url from the line it prints ("Serving on http://127.0.0.1:<port>/ ...", or the --host address); the server is
# stopped on exit.
start_server() {  # start_server HOUSERULES LOGFILE [serve options...]
  local hr=$1 log=$2
  shift 2
  "$hr" serve --port 0 "$@" > "$log" 2>&1 &
  server_pid=$!
  trap 'kill "$server_pid" 2>/dev/null; wait "$server_pid" 2>/dev/null; rm -rf "$tmp"' EXIT
  for _ in $(seq 100); do
    url=$(grep -o 'Serving on http://[^ /]*:[0-9]*/' "$log" | head -1 | cut -d' ' -f3)
    [ -n "$url" ] && return 0
    kill -0 "$server_pid" 2>/dev/null || { cat "$log"; echo "FAIL: serve exited"; exit 1; }
    sleep 0.1
  done
  cat "$log"
  echo "FAIL: serve printed no URL within 10 s"
  exit 1
}
