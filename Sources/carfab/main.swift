import CarfabCLI

// The carfab executable: signals and the process exit; the program is CarfabCLI, the language CarScript.
#if canImport(Glibc)
import Glibc
#endif

// A standard descriptor the caller closed (`carfab >&-`) is held by /dev/null opened the
// other way round: writing to it still fails (EBADF), so the loss is reported, and no file
// carfab opens later can take its number and receive output meant for it.
for fd in Int32(0)...2 where fcntl(fd, F_GETFD) == -1 && errno == EBADF {
    _ = open("/dev/null", fd == 0 ? O_WRONLY : O_RDONLY)
}

// Writes to a closed pipe must fail with EPIPE, not kill us mid-write: Program ends quietly.
signal(SIGPIPE, SIG_IGN)
// Past a file-size limit a write must fail with EFBIG, so `save` can remove its temporary file.
signal(SIGXFSZ, SIG_IGN)

// A test runner's worker thread may have left these blocked (SIGCONT: the prompt takes the
// terminal back after Ctrl-Z and fg).
var handled = sigset_t()
sigemptyset(&handled)
for signo in [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGCONT] { sigaddset(&handled, signo) }
sigprocmask(SIG_UNBLOCK, &handled, nil)

// No SA_RESTART: a blocked read returns EINTR so the program stops between lines. SIGQUIT
// is a stop like the others (status 131), never the runtime's crash report.
var action = sigaction()
action.__sigaction_handler.sa_handler = { signo in
    programStop.request(signo)
}
sigemptyset(&action.sa_mask)
action.sa_flags = 0
for signo in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] { sigaction(signo, &action, nil) }

// The arguments as the bytes they are: `CommandLine.arguments` would replace invalid UTF-8.
let arguments = (1..<Int(CommandLine.argc)).map { index in
    ArgumentBytes(
        CommandLine.unsafeArgv[index].map { Array(UnsafeBufferPointer(start: $0, count: strlen($0))).map(UInt8.init(bitPattern:)) } ?? [])
}

switch Program.run(arguments) {
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
