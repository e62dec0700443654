// The carfab executable: signals and the process exit; everything else is in CarScript.
#if canImport(Glibc)
import Glibc
#endif
import CarScript

// Writes to a closed pipe must fail with EPIPE, not kill us mid-write: Program ends quietly.
signal(SIGPIPE, SIG_IGN)

// A test runner's worker thread may have left these blocked.
var stopSignals = sigset_t()
sigemptyset(&stopSignals)
for signo in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&stopSignals, signo) }
sigprocmask(SIG_UNBLOCK, &stopSignals, nil)

// No SA_RESTART: a blocked read returns EINTR so the program stops between lines.
var action = sigaction()
action.__sigaction_handler.sa_handler = { signo in
    pendingStopSignal.store(signo, ordering: .relaxed)
}
sigemptyset(&action.sa_mask)
action.sa_flags = 0
for signo in [SIGINT, SIGTERM, SIGHUP] { sigaction(signo, &action, nil) }

switch Program.run(Array(CommandLine.arguments.dropFirst())) {
case .exit(let status):
    exit(status)
case .brokenPipe:
    // End as `cat` does when its reader goes away: by SIGPIPE, silently.
    signal(SIGPIPE, SIG_DFL)
    raise(SIGPIPE)
    exit(128 + SIGPIPE)
case .stoppedBy(let signo):
    exit(128 + signo)
}
