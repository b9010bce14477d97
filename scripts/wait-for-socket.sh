# Sourced by the benchmark scripts (bash).
# wait_for_socket PATH PID: waits up to 10 s for the server PID to create the Unix socket PATH;
# fails at once if PID has exited.
wait_for_socket() {
    for _ in $(seq 100); do
        [[ -S "$1" ]] && return 0
        kill -0 "$2" 2>/dev/null || return 1
        sleep 0.1
    done
    return 1
}
