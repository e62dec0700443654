#define _GNU_SOURCE
#include "CEditLine.h"

#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <termios.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wchar.h>
#include <term.h>

EditLine *cf_el_init(const char *program, int output) {
    return el_init(program, stdin, output == 2 ? stderr : stdout, stderr);
}
int cf_in_background(void) {
    /* Standard input: the terminal the prompt reads and sets the mode of (the prompt is drawn
       on standard output or error, which may be a pipe: not asked). Not a terminal, or hung
       up (EIO): not in the background, so nothing waits to be put in the foreground. */
    pid_t group = tcgetpgrp(STDIN_FILENO);
    return group >= 0 && group != getpgrp();
}

int cf_el_edits_terminal(EditLine *e) {
    /* As libedit decides at el_init (its tty_setup needs both): with output to a file it reads
       lines as the terminal's own mode gives them, but EL_PREP_TERM sets its raw mode all the
       same, so after `fg` Ctrl-D came as a character, not the end of input. */
    FILE *in = NULL, *out = NULL;
    if (el_get(e, EL_GETFP, 0, &in) != 0 || el_get(e, EL_GETFP, 1, &out) != 0 || in == NULL || out == NULL) return 0;
    return isatty(fileno(in)) && isatty(fileno(out));
}

void cf_el_end(EditLine *e) {
    /* Ended in the background (`kill %1` while stopped): the terminal is the shell's, in the
       shell's mode; libedit would put back the mode it found (and be stopped for it, SIGTTOU). */
    if (cf_in_background()) el_set(e, EL_EDITMODE, 0);
    el_end(e);
}
const char *cf_el_gets(EditLine *e, int *count) { return el_gets(e, count); }
const wchar_t *cf_el_wgets(EditLine *e, int *count) { return el_wgets(e, count); }
const LineInfo *cf_el_line(EditLine *e) { return el_line(e); }
const LineInfoW *cf_el_wline(EditLine *e) { return el_wline(e); }
int cf_el_insertstr(EditLine *e, const char *text) { return el_insertstr(e, text); }
int cf_el_winsertstr(EditLine *e, const wchar_t *text) { return el_winsertstr(e, text); }
void cf_el_deletestr(EditLine *e, int count) { el_deletestr(e, count); }
void cf_el_reset(EditLine *e) { el_reset(e); }
int cf_el_source(EditLine *e) { return el_source(e, NULL); }
int cf_el_is_vi(EditLine *e) {
    const char *mode = NULL;
    return el_get(e, EL_EDITOR, &mode) == 0 && mode != NULL && strcmp(mode, "vi") == 0;
}
int cf_el_set_prompt_esc(EditLine *e, char *(*prompt)(EditLine *), char ignore) { return el_set(e, EL_PROMPT_ESC, prompt, ignore); }
int cf_el_set_editor(EditLine *e, const char *mode) { return el_set(e, EL_EDITOR, mode); }
int cf_el_set_signal(EditLine *e, int on) { return el_set(e, EL_SIGNAL, on); }
int cf_el_set_hist(EditLine *e, HistoryW *h) { return el_wset(e, EL_HIST, history_w, h); }
int cf_el_addfn(EditLine *e, const char *name, const char *help, unsigned char (*function)(EditLine *, int)) {
    return el_set(e, EL_ADDFN, name, help, function);
}
int cf_el_bind(EditLine *e, const char *key, const char *function) { return el_set(e, EL_BIND, key, function, NULL); }
int cf_el_set_getcfn(EditLine *e, el_rfunc_t function) { return el_set(e, EL_GETCFN, function); }
int cf_el_set_clientdata(EditLine *e, void *data) { return el_set(e, EL_CLIENTDATA, data); }
void *cf_el_get_clientdata(EditLine *e) {
    void *data = NULL;
    el_get(e, EL_CLIENTDATA, &data);
    return data;
}

HistoryW *cf_history_init(void) { return history_winit(); }
void cf_history_end(HistoryW *h) { history_wend(h); }
int cf_history_setsize(HistoryW *h, HistEventW *ev, int size) { return history_w(h, ev, H_SETSIZE, size); }
int cf_history_setunique(HistoryW *h, HistEventW *ev, int on) { return history_w(h, ev, H_SETUNIQUE, on); }
int cf_history_enter(HistoryW *h, HistEventW *ev, const wchar_t *line) { return history_w(h, ev, H_ENTER, line); }

static volatile sig_atomic_t resumed;

static void note_resumed(int signo) {
    (void)signo;
    resumed = 1;
}

void cf_watch_resume(void) {
    struct sigaction action;
    action.sa_handler = note_resumed;
    sigemptyset(&action.sa_mask);
    action.sa_flags = 0;
    sigaction(SIGCONT, &action, NULL);
}

int cf_take_resumed(void) {
    int was = resumed;
    resumed = 0;
    return was;
}

static volatile sig_atomic_t suspended;
static struct sigaction suspend_before;
static int suspend_caught;

static void note_suspended(int signo) {
    (void)signo;
    suspended = 1;
}

void cf_catch_suspend(int on) {
    if (on) {
        struct sigaction action;
        action.sa_handler = note_suspended;
        sigemptyset(&action.sa_mask);
        action.sa_flags = 0;
        suspended = 0;
        sigaction(SIGTSTP, &action, &suspend_before);
        suspend_caught = 1;
        /* Started with Ctrl-Z ignored (no job control): it stays ignored. */
        if (suspend_before.sa_handler == SIG_IGN) cf_catch_suspend(0);
    } else if (suspend_caught) {
        sigaction(SIGTSTP, &suspend_before, NULL);
        suspend_caught = 0;
        /* Caught after the last key was read: acted on now, as if it came a moment later. */
        if (suspended) {
            suspended = 0;
            raise(SIGTSTP);
        }
    }
}

int cf_take_suspended(void) {
    int was = suspended;
    suspended = 0;
    return was;
}

static int stop_self(int signo);

/* libedit's refresh draws the prompt and line from the cursor on, as if it stood at the start
   of the line: after a shell's `fg` it does (below the shell's lines), after a stop no shell
   saw (SIGSTOP, SIGCONT) it stands after the line. A carriage return first, so the line is
   drawn once where it begins, never a second copy beside the first. */
static void redraw(EditLine *e, int fd) {
    (void)!write(fd, "\r", 1);
    el_set(e, EL_REFRESH);
}

void cf_el_suspend(EditLine *e, int fd, int bracketed, int (*pending)(void)) {
    /* As readline does: the shell gets the terminal as it was before the prompt (its own
       mode, pasted text not bracketed), then SIGTSTP's own action stops carfab. */
    int editing = cf_el_edits_terminal(e);
    if (bracketed) (void)!write(fd, "\033[?2004l", 8);
    if (editing) el_set(e, EL_PREP_TERM, 0);
    /* Continued (`fg`), or never stopped: the kernel drops a SIGTSTP whose action is the
       default in an orphaned process group (carfab leading its own session: `ssh -t host
       carfab`, `tmux new carfab`), and no SIGCONT comes. Either way the prompt takes the
       terminal back here, as readline does; a SIGCONT after it does so again (cf_el_resume).
       This stop's own SIGCONT is taken by stop_self: the line is drawn once, here, not again
       by the next read (cf_take_resumed). Never stopped: it is still on the screen. */
    int continued = stop_self(SIGTSTP);
    /* Continued in the background (`bg`): stopped again, as a background read of the terminal
       would be, until it is the foreground again (`fg`). A stop signal sent with the SIGCONT
       (`kill %1` sends SIGTERM, then SIGCONT) ends carfab there, the terminal left as the shell
       has it: setting libedit's mode from the background would stop carfab again (SIGTTOU). */
    while (continued && cf_in_background()) {
        if (pending()) return;
        continued = stop_self(SIGTTIN);
    }
    if (bracketed) (void)!write(fd, "\033[?2004h", 8);
    /* Not editing, the terminal's own mode reads the line: nothing to set, nothing drawn. */
    if (!editing) return;
    el_set(e, EL_PREP_TERM, 1);
    if (continued) redraw(e, fd);
}

void cf_el_resume(EditLine *e, int fd) {
    /* The shell gave the terminal back in its own mode: libedit's raw mode again, and the line redrawn. */
    if (!cf_el_edits_terminal(e)) return;
    el_set(e, EL_PREP_TERM, 0);
    el_set(e, EL_PREP_TERM, 1);
    redraw(e, fd);
}

int cf_wait_readable(int fd, int (*pending)(void)) {
    sigset_t stops, previous;
    sigemptyset(&stops);
    sigaddset(&stops, SIGINT);
    sigaddset(&stops, SIGTERM);
    sigaddset(&stops, SIGHUP);
    sigaddset(&stops, SIGQUIT);
    sigaddset(&stops, SIGTSTP);
    sigprocmask(SIG_BLOCK, &stops, &previous);
    int result;
    if (pending() || suspended) {
        errno = EINTR;
        result = -1;
    } else {
        struct pollfd item = { .fd = fd, .events = POLLIN, .revents = 0 };
        sigset_t during = previous;
        sigdelset(&during, SIGINT);
        sigdelset(&during, SIGTERM);
        sigdelset(&during, SIGHUP);
        sigdelset(&during, SIGQUIT);
        sigdelset(&during, SIGTSTP);
        result = ppoll(&item, 1, NULL, &during);
        if (result > 0) result = 1;
    }
    int saved = errno;
    sigprocmask(SIG_SETMASK, &previous, NULL);
    errno = saved;
    return result;
}

/* The terminal's mode before the page began (the prompt's caller's, cooked): what the shell
   gets back while the page is stopped, as a shell's job leaves it (one page at a time). */
static struct termios mode_before_page;
static int mode_before_page_saved;

int cf_spawn_job(pid_t *pid, const char *path, posix_spawn_file_actions_t *actions, char *const argv[],
                 char *const envp[], int tty) {
    /* A job of its own only from the terminal's foreground (not `carfab &`, not without a
       controlling terminal): else it runs in carfab's group, as before. */
    int job = tty >= 0 && tcgetpgrp(tty) == getpgrp();
    mode_before_page_saved = job && tcgetattr(tty, &mode_before_page) == 0;
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    if (job) {
        /* Its own group, the terminal's foreground before it runs (glibc's child does both
           with every signal blocked, so the pager never reads from the background). */
        posix_spawnattr_setpgroup(&attributes, 0);
        posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
        posix_spawn_file_actions_addtcsetpgrp_np(actions, tty);
    }
    int result = posix_spawn(pid, path, actions, &attributes, argv, envp);
    posix_spawnattr_destroy(&attributes);
    return result != 0 ? -1 : job;
}

/* Makes `group` the terminal's foreground; SIGTTOU blocked, as carfab may be in the background
   of its own terminal when it takes it back. */
static void give_terminal(int tty, pid_t group) {
    sigset_t ttou, before;
    sigemptyset(&ttou);
    sigaddset(&ttou, SIGTTOU);
    sigprocmask(SIG_BLOCK, &ttou, &before);
    (void)tcsetpgrp(tty, group);
    sigprocmask(SIG_SETMASK, &before, NULL);
}

/* Stops carfab with `signo`'s default action, as if it had come from the terminal; 1 if it
   stopped and was continued, 0 if the kernel dropped it (an orphaned group: no shell to
   continue it, so none stops it). */
static int stop_self(int signo) {
    struct sigaction stop, before, continued, note;
    stop.sa_handler = SIG_DFL;
    sigemptyset(&stop.sa_mask);
    stop.sa_flags = 0;
    note.sa_handler = note_resumed;
    sigemptyset(&note.sa_mask);
    note.sa_flags = 0;
    sigaction(signo, &stop, &before);
    /* Started with it ignored (no job control): carfab does not stop. */
    if (before.sa_handler == SIG_IGN) {
        sigaction(signo, &before, NULL);
        return 0;
    }
    sigaction(SIGCONT, &note, &continued);
    sigset_t only, mask;
    sigemptyset(&only);
    sigaddset(&only, signo);
    sigaddset(&only, SIGCONT);
    sigprocmask(SIG_UNBLOCK, &only, &mask);
    resumed = 0;
    raise(signo);
    /* Its SIGCONT is this stop's: taken here, so that the next read does not redraw for it. */
    int was = resumed;
    resumed = 0;
    sigprocmask(SIG_SETMASK, &mask, NULL);
    sigaction(SIGCONT, &continued, NULL);
    sigaction(signo, &before, NULL);
    return was;
}

/* Whether process `pid` ignores Ctrl-Z (its SigIgn in /proc). */
static int ignores_stop(pid_t pid) {
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    FILE *file = fopen(path, "re");
    if (file == NULL) return 0;
    char line[256];
    unsigned long long ignored = 0;
    int found = 0;
    while (!found && fgets(line, sizeof line, file) != NULL) found = sscanf(line, "SigIgn: %llx", &ignored) == 1;
    fclose(file);
    return found && ((ignored >> (SIGTSTP - 1)) & 1);
}

/* Stops the processes of `group` that ignore Ctrl-Z (`less` under LESSSECURE). The others
   stopped at once, or stop themselves once they have put the terminal back (a pager that
   catches it): a SIGSTOP before that would leave it to stop itself again after `fg`. */
static void stop_the_rest(pid_t group) {
    DIR *processes = opendir("/proc");
    if (processes == NULL) {
        kill(-group, SIGSTOP);
        return;
    }
    struct dirent *entry;
    while ((entry = readdir(processes)) != NULL) {
        char *end;
        long pid = strtol(entry->d_name, &end, 10);
        if (*end != 0 || pid <= 0 || getpgid((pid_t)pid) != group) continue;
        if (ignores_stop((pid_t)pid)) kill((pid_t)pid, SIGSTOP);
    }
    closedir(processes);
}

int cf_wait_job(pid_t pid, int job, int tty, int *status, int (*ending)(void)) {
    for (;;) {
        /* A stop signal (SIGTERM, SIGHUP, SIGQUIT) stops carfab wherever it waits: the page
           ends first (SIGTERM, on which less puts the terminal back as it found it). */
        if (ending != NULL && ending()) {
            ending = NULL;
            if (!job) return -2;
            kill(-pid, SIGTERM);
        }
        if (waitpid(pid, status, job ? WUNTRACED : 0) < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        if (!job || !WIFSTOPPED(*status)) break;
        /* Ctrl-Z went to the page's group, the terminal's foreground, and stopped the shell
           running the pager; `less` under LESSSECURE ignores it. The whole page stops, and
           carfab with it, so the shell that started carfab owns the keyboard (as for
           `git log`), its terminal mode kept for `fg`, which gives the page back. */
        stop_the_rest(pid);
        struct termios mode;
        int saved = tcgetattr(tty, &mode) == 0;
        give_terminal(tty, getpgrp());
        /* Not the pager's raw mode for the shell (bash's readline sets its own; dash does not). */
        if (mode_before_page_saved) tcsetattr(tty, TCSADRAIN, &mode_before_page);
        int continued = stop_self(SIGTSTP);
        /* Continued in the background (`bg`): stopped again, as a background read of the
           terminal would be, until it is the foreground again (`fg`). A stop signal sent with
           the SIGCONT (`kill %1`) ends the page and carfab there, the terminal left to the
           shell: the page is killed (a pager putting its mode back from the background would
           stop for it, SIGTTOU; the shell's mode is the terminal's now). */
        while (continued && tcgetpgrp(tty) != getpgrp()) {
            if (ending != NULL && ending()) {
                kill(-pid, SIGKILL);
                while (waitpid(pid, status, 0) < 0 && errno == EINTR) {}
                return 0;
            }
            continued = stop_self(SIGTTIN);
        }
        if (saved) tcsetattr(tty, TCSADRAIN, &mode);
        give_terminal(tty, pid);
        kill(-pid, SIGCONT);
    }
    if (job) give_terminal(tty, getpgrp());
    return 0;
}

int cf_terminal_columns(int fd) {
    struct winsize size;
    if (ioctl(fd, TIOCGWINSZ, &size) == 0) return size.ws_col;
    return 0;
}

int cf_wcwidth(wchar_t c) { return wcwidth(c); }

int cf_terminal_rows(int fd) {
    struct winsize size;
    if (ioctl(fd, TIOCGWINSZ, &size) == 0) return size.ws_row;
    return 0;
}

int cf_die_with_parent(int parent) {
    // Checked after the request: a parent that died before it made it would never send the signal.
    (void)prctl(PR_SET_PDEATHSIG, SIGKILL);
    return getppid() == parent;
}

int cf_terminal_colors(const char *term) {
    if (term == NULL || *term == 0) return -1;
    /* Read the entry into a terminal of our own, then drop it: libedit loads its own later. */
    TERMINAL *previous = set_curterm(NULL);
    int status = 0;
    int colors = -1;
    if (setupterm((char *)term, 1, &status) == 0) {
        colors = tigetnum("colors");
        del_curterm(cur_term);
    }
    set_curterm(previous);
    return colors > 0 ? colors : -1;
}

int cf_terminal_known(const char *term) {
    if (term == NULL || *term == 0 || strcmp(term, "dumb") == 0) return 0;
    /* As cf_terminal_colors: a terminal of our own, dropped again. */
    TERMINAL *previous = set_curterm(NULL);
    int status = 0;
    int known = setupterm((char *)term, 1, &status) == 0;
    if (known) del_curterm(cur_term);
    set_curterm(previous);
    return known;
}
